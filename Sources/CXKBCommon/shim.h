// The wall around libxkbcommon: the keyboard layout `--inject`'s uinput keyboard types through
// (Sources/SwitchInput/KeyLayout.swift), so keys are sent by keysym, never by key position.
#include <xkbcommon/xkbcommon.h>
#include <string.h>

// A keymap from RMLVO names; empty fields take libxkbcommon's defaults (XKB_DEFAULT_* in the
// environment, else evdev/pc105/us).
static inline struct xkb_keymap *cxkb_keymap(struct xkb_context *ctx, const char *layout, const char *variant,
                                             const char *model, const char *options) {
    struct xkb_rule_names names;
    memset(&names, 0, sizeof names);
    names.layout = layout && *layout ? layout : NULL;
    names.variant = variant && *variant ? variant : NULL;
    names.model = model && *model ? model : NULL;
    names.options = options && *options ? options : NULL;
    return xkb_keymap_new_from_names(ctx, &names, XKB_KEYMAP_COMPILE_NO_FLAGS);
}

// The key (evdev code, at most `maxEvdev`: keys a keyboard device can send) and modifier mask
// that type `keysym` in the first layout, the level with the fewest modifiers; 0 when none does.
static inline int cxkb_lookup(struct xkb_keymap *map, xkb_keysym_t keysym, unsigned maxEvdev, unsigned *evdev, xkb_mod_mask_t *modsOut) {
    int found = 0, best = 99;
    xkb_keycode_t min = xkb_keymap_min_keycode(map), max = xkb_keymap_max_keycode(map);
    for (xkb_keycode_t kc = min; kc <= max && kc >= min; kc++) {
        if (kc < 8 || kc - 8 > maxEvdev || xkb_keymap_num_layouts_for_key(map, kc) == 0) continue;
        xkb_level_index_t levels = xkb_keymap_num_levels_for_key(map, kc, 0);
        for (xkb_level_index_t l = 0; l < levels; l++) {
            const xkb_keysym_t *syms;
            int n = xkb_keymap_key_get_syms_by_level(map, kc, 0, l, &syms);
            if (n != 1 || syms[0] != keysym) continue;
            xkb_mod_mask_t masks[8];
            size_t m = xkb_keymap_key_get_mods_for_level(map, kc, 0, l, masks, 8);
            for (size_t i = 0; i < m; i++) {
                int count = __builtin_popcount(masks[i]);
                if (count < best) {
                    best = count;
                    *evdev = kc - 8;
                    *modsOut = masks[i];
                    found = 1;
                }
            }
        }
        if (kc == max) break;
    }
    return found;
}

// Whether key `evdev` types `keysym` at its first level of the first layout.
static inline int cxkb_key_has(struct xkb_keymap *map, unsigned evdev, xkb_keysym_t keysym) {
    const xkb_keysym_t *syms;
    int n = xkb_keymap_key_get_syms_by_level(map, evdev + 8, 0, 0, &syms);
    return n == 1 && syms[0] == keysym;
}
