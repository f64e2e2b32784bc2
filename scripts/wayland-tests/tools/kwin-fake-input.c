/* kwin-fake-input.c — the Wayland tests' pointer and keys on KWin through org_kde_kwin_fake_input
 * (plasma-wayland-protocols' fake-input.xml), a test tool, not product code. run-kwin.sh builds
 * it and names it in a .desktop file with X-KDE-Wayland-Interfaces=org_kde_kwin_fake_input:
 * KWin offers the interface only to a binary a .desktop file names.
 *
 * KWin's seat has a pointer and a keyboard only while some fake-input client is connected: a
 * client that connects, clicks and leaves races the applications, which bind wl_pointer only
 * when the seat announces one (the click is lost when they are late). Keep one connection for
 * the whole run (--stdin), as switchscan must.
 *
 * usage: kwin-fake-input STEP...   steps, in order, each followed by a roundtrip (KWin has handled
 *                                  it before the next is sent):
 *   move X Y          absolute pointer motion, logical desktop pixels
 *   down BTN | up BTN button pressed / released (evdev code: 272 left, 273 right, 274 middle)
 *   click X Y         move, then 272 down and up
 *   key CODE          evdev key code pressed and released
 *   keydown CODE | keyup CODE   a key held (a modifier for a drag) and let go
 *   type TEXT         ASCII letters, digits, space and . , - as US-keymap keys (Shift for capitals)
 *        kwin-fake-input --stdin   the same steps, a line at a time, answered "ok" or "error"
 * Exit 0; 2 for bad steps; 3 when KWin does not offer the interface to this binary; 1 no display.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/input-event-codes.h>
#include <wayland-client.h>
#include "fake-input-client-protocol.h"

static struct org_kde_kwin_fake_input *fake;
static uint32_t fake_version;

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    (void)data;
    if (strcmp(interface, org_kde_kwin_fake_input_interface.name) == 0) {
        fake_version = version < 4 ? version : 4;
        fake = wl_registry_bind(registry, name, &org_kde_kwin_fake_input_interface, fake_version);
    }
}
static void global_remove(void *data, struct wl_registry *registry, uint32_t name) { (void)data; (void)registry; (void)name; }
static const struct wl_registry_listener registry_listener = { global, global_remove };

/* The US keymap's key for an ASCII character; *shift set for a capital. 0 for none. */
static int key_for(char c, int *shift) {
    static const char *rows[] = { "qwertyuiop", "asdfghjkl", "zxcvbnm" };
    static const int starts[] = { KEY_Q, KEY_A, KEY_Z };
    *shift = isupper((unsigned char)c) != 0;
    c = (char)tolower((unsigned char)c);
    for (int r = 0; r < 3; r++) {
        const char *at = strchr(rows[r], c);
        if (at && c) return starts[r] + (int)(at - rows[r]);
    }
    if (c >= '1' && c <= '9') return KEY_1 + (c - '1');
    switch (c) {
    case '0': return KEY_0;
    case ' ': return KEY_SPACE;
    case '.': return KEY_DOT;
    case ',': return KEY_COMMA;
    case '-': return KEY_MINUS;
    default: return 0;
    }
}

static void key(struct wl_display *display, int code, int pressed) {
    org_kde_kwin_fake_input_keyboard_key(fake, (uint32_t)code, pressed ? 1 : 0);
    wl_display_roundtrip(display);
}

/* Runs steps argv[0..argc); returns 0, or 2 for a bad step (message on stderr). */
static int run_steps(struct wl_display *display, int argc, char **argv) {
    for (int i = 0; i < argc; i++) {
        const char *step = argv[i];
        int more = argc - i - 1;
        if ((!strcmp(step, "move") || !strcmp(step, "click")) && more >= 2) {
            org_kde_kwin_fake_input_pointer_motion_absolute(fake, wl_fixed_from_double(atof(argv[i + 1])), wl_fixed_from_double(atof(argv[i + 2])));
            wl_display_roundtrip(display);
            if (!strcmp(step, "click")) {
                org_kde_kwin_fake_input_button(fake, BTN_LEFT, 1);
                wl_display_roundtrip(display);
                org_kde_kwin_fake_input_button(fake, BTN_LEFT, 0);
                wl_display_roundtrip(display);
            }
            i += 2;
        } else if ((!strcmp(step, "down") || !strcmp(step, "up")) && more >= 1) {
            org_kde_kwin_fake_input_button(fake, (uint32_t)atoi(argv[++i]), !strcmp(step, "down"));
            wl_display_roundtrip(display);
        } else if (!strcmp(step, "key") && more >= 1 && fake_version >= 4) {
            int code = atoi(argv[++i]);
            key(display, code, 1);
            key(display, code, 0);
        } else if ((!strcmp(step, "keydown") || !strcmp(step, "keyup")) && more >= 1 && fake_version >= 4) {
            key(display, atoi(argv[++i]), !strcmp(step, "keydown"));
        } else if (!strcmp(step, "type") && more >= 1 && fake_version >= 4) {
            for (const char *c = argv[++i]; *c; c++) {
                int shift, code = key_for(*c, &shift);
                if (!code) { fprintf(stderr, "kwin-fake-input: cannot type '%c'\n", *c); return 2; }
                if (shift) key(display, KEY_LEFTSHIFT, 1);
                key(display, code, 1);
                key(display, code, 0);
                if (shift) key(display, KEY_LEFTSHIFT, 0);
            }
        } else {
            fprintf(stderr, "kwin-fake-input: bad step '%s' (or too few arguments, or keys need fake input version 4, KWin offers %u)\n", step, fake_version);
            return 2;
        }
    }
    return 0;
}

/* --stdin: one line of steps at a time ("type" takes the rest of its line), answered "ok" or
 * "error" on stdout once KWin has handled them, until end of input. */
static int serve(struct wl_display *display) {
    char line[4096];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = 0;
        char *tokens[512];
        int n = 0;
        for (char *p = strtok(line, " "); p && n < 511; p = strtok(NULL, " ")) {
            tokens[n++] = p;
            if (!strcmp(p, "type")) {
                char *rest = strtok(NULL, "");
                if (rest) tokens[n++] = rest;
                break;
            }
        }
        int rc = run_steps(display, n, tokens);
        printf("%s\n", rc == 0 ? "ok" : "error");
        fflush(stdout);
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: %s STEP... | --stdin   (steps: move X Y, down BTN, up BTN, click X Y, key CODE, keydown CODE, keyup CODE, type TEXT)\n", argv[0]); return 2; }
    struct wl_display *display = wl_display_connect(NULL);
    if (!display) { fprintf(stderr, "kwin-fake-input: no Wayland display\n"); return 1; }
    wl_registry_add_listener(wl_display_get_registry(display), &registry_listener, NULL);
    wl_display_roundtrip(display);
    if (!fake) { fprintf(stderr, "kwin-fake-input: KWin does not offer org_kde_kwin_fake_input to this binary (no .desktop names it?)\n"); return 3; }
    org_kde_kwin_fake_input_authenticate(fake, "switchscan tests", "pointer and keys for the Wayland tests");
    wl_display_roundtrip(display);
    int rc = !strcmp(argv[1], "--stdin") ? serve(display) : run_steps(display, argc - 1, argv + 1);
    wl_display_roundtrip(display);
    wl_display_disconnect(display);
    return rc;
}
