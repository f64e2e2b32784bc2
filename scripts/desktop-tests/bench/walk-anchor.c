/* walk-anchor.c: the benchmark's anchor: a plain uncached full walk with libatspi, reading for
 * every node what a scanner needs (role, name, states, screen extents, action names), as a C
 * client written the obvious way does (one blocking getter after another; libatspi's cache off,
 * its default). Adapted from ../shared/tools/atspi/atspi-probe.c ("time", level 2).
 *
 *   walk-anchor APP [REPS]    one warm-up walk, then REPS timed walks; prints the median
 * Build: gcc -O2 -o walk-anchor walk-anchor.c $(pkg-config --cflags --libs atspi-2 gobject-2.0)
 */
#include <atspi/atspi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int walk(AtspiAccessible *a) {
  atspi_accessible_get_role(a, NULL);
  g_free(atspi_accessible_get_name(a, NULL));
  g_object_unref(atspi_accessible_get_state_set(a));
  AtspiComponent *c = atspi_accessible_get_component_iface(a);
  if (c) { g_free(atspi_component_get_extents(c, ATSPI_COORD_TYPE_SCREEN, NULL)); g_object_unref(c); }
  AtspiAction *act = atspi_accessible_get_action_iface(a);
  if (act) {
    int n = atspi_action_get_n_actions(act, NULL);
    for (int i = 0; i < n; i++) g_free(atspi_action_get_action_name(act, i, NULL));
    g_object_unref(act);
  }
  int count = 1, k = atspi_accessible_get_child_count(a, NULL);
  for (int i = 0; i < k; i++) {
    AtspiAccessible *ch = atspi_accessible_get_child_at_index(a, i, NULL);
    if (!ch) continue;
    count += walk(ch);
    g_object_unref(ch);
  }
  return count;
}

static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }

int main(int argc, char **argv) {
  if (argc < 2 || atspi_init() > 1) { fprintf(stderr, "usage: walk-anchor APP [REPS] (inside a desktop session)\n"); return 2; }
  int reps = argc > 2 ? atoi(argv[2]) : 20;
  AtspiAccessible *desk = atspi_get_desktop(0), *app = NULL;
  for (int i = 0; i < atspi_accessible_get_child_count(desk, NULL) && !app; i++) {
    AtspiAccessible *a = atspi_accessible_get_child_at_index(desk, i, NULL);
    char *n = a ? atspi_accessible_get_name(a, NULL) : NULL;
    if (n && !strcmp(n, argv[1])) app = a; else if (a) g_object_unref(a);
    g_free(n);
  }
  if (!app) { fprintf(stderr, "no application %s\n", argv[1]); return 1; }
  int nodes = walk(app);   /* warm-up: libatspi sets up its peer-to-peer connection meanwhile */
  double *t = malloc(sizeof(double) * reps);
  for (int r = 0; r < reps; r++) {
    gint64 t0 = g_get_monotonic_time();
    nodes = walk(app);
    t[r] = (g_get_monotonic_time() - t0) / 1000.0;
  }
  qsort(t, reps, sizeof *t, cmp);
  printf("libatspi C walk: %d nodes; median %.1f ms, min %.1f, max %.1f (%d walks)\n", nodes, t[reps / 2], t[0], t[reps - 1], reps);
  return 0;
}
