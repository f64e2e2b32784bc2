/* libatspi-growth.c: why `run --desktop` listens to accessibility events on a connection of its
 * own (Sources/SwitchDesktop/Bus/AtspiEvents.swift; BENCHMARKS.md "Soak"). A client that does
 * nothing but listen, through libatspi, to the events switchscan needs, and frees each event:
 *
 *   gcc -O2 -o /tmp/libatspi-growth libatspi-growth.c $(pkg-config --cflags --libs atspi-2 gobject-2.0)
 *   /tmp/libatspi-growth SECONDS [0]      (0: register no listener, only atspi_init)
 *
 * Run it inside run-desktop.sh beside a browser on bench/changing-page.html and sample its VmRSS:
 * it grows 18–19 MB an hour either way (2026-11-26, libatspi 2.46.0, Chromium 156), since libatspi
 * makes an AtspiAccessible for the source of every event it receives (and a children-changed
 * event's child) and keeps it in its application's table until the application sends
 * Cache.RemoveAccessible, which the browsers do not for web content; atspi_init alone adds match
 * rules for children, property and state changes, so the table grows without any listener. */
#include <atspi/atspi.h>
#include <stdio.h>
#include <stdlib.h>

static long count;
static gboolean tick(gpointer data) { return TRUE; }
static void received(AtspiEvent *e, void *data) { count++; g_boxed_free(ATSPI_TYPE_EVENT, e); }

int main(int argc, char **argv) {
  int seconds = argc > 1 ? atoi(argv[1]) : 300;
  int listen = argc > 2 ? atoi(argv[2]) : 1;
  atspi_init();
  const char *types[] = {"window:activate", "window:deactivate", "window:create", "window:destroy",
    "object:children-changed", "object:state-changed", "object:bounds-changed",
    "object:property-change:accessible-name", "object:property-change:accessible-description",
    "object:property-change:accessible-value", "object:value-changed", "object:text-changed"};
  AtspiEventListener *l = atspi_event_listener_new(received, NULL, NULL);
  if (listen)
    for (unsigned i = 0; i < sizeof types / sizeof *types; i++) atspi_event_listener_register(l, types[i], NULL);
  g_timeout_add(1000, tick, NULL);
  gint64 end = g_get_monotonic_time() + (gint64)seconds * 1000000;
  while (g_get_monotonic_time() < end) g_main_context_iteration(NULL, TRUE);
  fprintf(stderr, "libatspi-growth: %ld events\n", count);
  return 0;
}
