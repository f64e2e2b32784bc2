// The OverlayScene: checked from its JSON, measured and painted with cairo (docs: ../README.md).
//
// Shared by both Shell versions. It imports nothing (the toolkit comes in as arguments), so the
// build can turn it into a GNOME 43 `imports.*` module by dropping the word `export` (build.sh).
// Painting with cairo and Pango, as the layer-shell renderer does, draws the same pixels from the
// same scene on every desktop: a rect's stroke inside the rect, a pie from 12 o'clock clockwise.

/** The largest scene accepted, in characters of JSON, and its most shapes (a keyboard panel of
 *  a hundred keys is about 300 shapes and 40 KB). */
export const SCENE_MAX_CHARS = 1 << 20;
export const SCENE_MAX_SHAPES = 4096;
const TEXT_MAX_CHARS = 4096;
const COORD_MAX = 100000;

const SHAPE_KEYS = {
    rect: ['kind', 'x', 'y', 'w', 'h', 'fill', 'stroke', 'lineWidth', 'dash'],
    text: ['kind', 'x', 'y', 'text', 'size', 'color', 'font'],
    pie: ['kind', 'cx', 'cy', 'r', 'fraction', 'fill', 'stroke', 'lineWidth'],
};

/** Thrown for a scene that breaks the contract; the message names the place and what was expected. */
export class SceneError extends Error {}

function fail(path, expected, value) {
    let shown;
    try {
        shown = JSON.stringify(value);
    } catch (e) {
        shown = String(value);
    }
    if (shown === undefined)
        shown = 'nothing';
    if (shown.length > 60)
        shown = `${shown.slice(0, 57)}...`;
    throw new SceneError(`${path}: expected ${expected}, got ${shown}`);
}

function number(shape, key, path, min, max) {
    const v = shape[key];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max)
        fail(`${path}.${key}`, `a number from ${min} to ${max}`, v);
    return v;
}

function optionalNumber(shape, key, path, min, max, otherwise) {
    return shape[key] === undefined ? otherwise : number(shape, key, path, min, max);
}

function color(shape, key, path, otherwise) {
    const v = shape[key];
    if (v === undefined)
        return otherwise;
    if (typeof v !== 'string' || !/^#([0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/.test(v))
        fail(`${path}.${key}`, 'a colour "#RRGGBB" or "#RRGGBBAA"', v);
    const n = i => parseInt(v.slice(i, i + 2), 16) / 255;
    return [n(1), n(3), n(5), v.length === 9 ? n(7) : 1];
}

function checkShape(shape, path) {
    if (shape === null || typeof shape !== 'object' || Array.isArray(shape))
        fail(path, 'an object', shape);
    const keys = SHAPE_KEYS[shape.kind];
    if (!keys)
        fail(`${path}.kind`, '"rect", "text" or "pie"', shape.kind);
    for (const key of Object.keys(shape)) {
        if (!keys.includes(key))
            fail(`${path}.${key}`, `no such key in a ${shape.kind} (keys: ${keys.slice(1).join(', ')})`, shape[key]);
    }
    switch (shape.kind) {
    case 'rect': {
        const r = {
            kind: 'rect',
            x: number(shape, 'x', path, -COORD_MAX, COORD_MAX),
            y: number(shape, 'y', path, -COORD_MAX, COORD_MAX),
            w: number(shape, 'w', path, 0, COORD_MAX),
            h: number(shape, 'h', path, 0, COORD_MAX),
            fill: color(shape, 'fill', path, null),
            stroke: color(shape, 'stroke', path, null),
            lineWidth: optionalNumber(shape, 'lineWidth', path, 0, 1000, 1),
            dash: null,
        };
        if (shape.dash !== undefined) {
            const d = shape.dash;
            if (!Array.isArray(d) || d.length !== 2 || !d.every(v => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1000) || d[0] === 0)
                fail(`${path}.dash`, '[on, off]: two numbers from 0 to 1000, on above 0', d);
            r.dash = d;
        }
        return r;
    }
    case 'text': {
        if (typeof shape.text !== 'string' || shape.text.length > TEXT_MAX_CHARS)
            fail(`${path}.text`, `a string of at most ${TEXT_MAX_CHARS} characters`, shape.text);
        if (shape.font !== undefined && (typeof shape.font !== 'string' || shape.font.length === 0 || shape.font.length > 200))
            fail(`${path}.font`, 'a font family name', shape.font);
        return {
            kind: 'text',
            x: number(shape, 'x', path, -COORD_MAX, COORD_MAX),
            y: number(shape, 'y', path, -COORD_MAX, COORD_MAX),
            text: shape.text,
            size: number(shape, 'size', path, 1, 1000),
            color: color(shape, 'color', path, [0, 0, 0, 1]),
            font: shape.font ?? 'DejaVu Sans',
        };
    }
    default: // pie
        return {
            kind: 'pie',
            cx: number(shape, 'cx', path, -COORD_MAX, COORD_MAX),
            cy: number(shape, 'cy', path, -COORD_MAX, COORD_MAX),
            r: number(shape, 'r', path, 0, COORD_MAX),
            fraction: number(shape, 'fraction', path, 0, 1),
            fill: color(shape, 'fill', path, null),
            stroke: color(shape, 'stroke', path, null),
            lineWidth: optionalNumber(shape, 'lineWidth', path, 0, 1000, 1),
        };
    }
}

/**
 * The shapes of a scene's JSON text, checked, colours as [r, g, b, a] from 0 to 1.
 * Throws SceneError naming the first problem: `shapes[2].w: expected a number from 0 to 100000, got "abc"`.
 */
export function parseScene(text) {
    if (typeof text !== 'string')
        fail('scene', 'a string of JSON', text);
    if (text.length > SCENE_MAX_CHARS)
        throw new SceneError(`scene: ${text.length} characters is more than the ${SCENE_MAX_CHARS} allowed`);
    let doc;
    try {
        doc = JSON.parse(text);
    } catch (e) {
        throw new SceneError(`scene: not JSON (${e.message})`);
    }
    if (doc === null || typeof doc !== 'object' || Array.isArray(doc))
        fail('scene', 'an object {"shapes": [...]}', doc);
    for (const key of Object.keys(doc)) {
        if (key !== 'shapes')
            fail(`scene.${key}`, 'no such key (keys: shapes)', doc[key]);
    }
    if (!Array.isArray(doc.shapes))
        fail('scene.shapes', 'an array', doc.shapes);
    if (doc.shapes.length > SCENE_MAX_SHAPES)
        throw new SceneError(`scene.shapes: ${doc.shapes.length} shapes is more than the ${SCENE_MAX_SHAPES} allowed`);
    return doc.shapes.map((s, i) => checkShape(s, `shapes[${i}]`));
}

/** A text shape's Pango layout on a layout-making function (PangoCairo's, for measuring or painting). */
function textLayout(shape, newLayout, Pango) {
    const layout = newLayout();
    const font = Pango.FontDescription.from_string(shape.font);
    font.set_absolute_size(shape.size * Pango.SCALE);
    layout.set_font_description(font);
    layout.set_text(shape.text, -1);
    return layout;
}

/**
 * The smallest whole-pixel box around all shapes, {x, y, w, h}, null for none. Text is measured
 * with a Pango context from `pangoContext` (its logical extents: the box the text is laid out in).
 */
export function sceneBounds(shapes, pangoContext, Pango) {
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    const add = (x, y, w, h) => {
        x0 = Math.min(x0, x);
        y0 = Math.min(y0, y);
        x1 = Math.max(x1, x + w);
        y1 = Math.max(y1, y + h);
    };
    for (const s of shapes) {
        if (s.kind === 'rect') {
            add(s.x, s.y, s.w, s.h);
        } else if (s.kind === 'pie') {
            add(s.cx - s.r, s.cy - s.r, 2 * s.r, 2 * s.r);
        } else {
            const [, logical] = textLayout(s, () => Pango.Layout.new(pangoContext), Pango).get_pixel_extents();
            add(s.x + logical.x, s.y + logical.y, logical.width, logical.height);
        }
    }
    if (x0 === Infinity)
        return null;
    // Two pixels more on each side: antialiasing at fractional coordinates, and text painted with
    // the stage's font options (hinting) may reach a pixel past the extents measured without them.
    const x = Math.floor(x0) - 2, y = Math.floor(y0) - 2;
    return {x, y, w: Math.ceil(x1) + 2 - x, h: Math.ceil(y1) + 2 - y};
}

/**
 * Paints the shapes with cairo context `cr` whose (0, 0) is desktop point (originX, originY).
 * A rect's stroke lies inside the rect (its outer edge is the rect's edge, as the X11 ring's);
 * a pie fills from 12 o'clock clockwise over `fraction`, its outline inside radius r.
 */
export function paintScene(cr, shapes, originX, originY, Pango, PangoCairo) {
    cr.translate(-originX, -originY);
    for (const s of shapes) {
        cr.save();
        if (s.kind === 'rect') {
            if (s.fill) {
                cr.setSourceRGBA(...s.fill);
                cr.rectangle(s.x, s.y, s.w, s.h);
                cr.fill();
            }
            if (s.stroke && s.lineWidth > 0) {
                const lw = Math.min(s.lineWidth, s.w / 2, s.h / 2);
                cr.setSourceRGBA(...s.stroke);
                cr.setLineWidth(lw);
                if (s.dash)
                    cr.setDash(s.dash, 0);
                cr.rectangle(s.x + lw / 2, s.y + lw / 2, s.w - lw, s.h - lw);
                cr.stroke();
            }
        } else if (s.kind === 'pie') {
            const top = -Math.PI / 2;
            if (s.fill && s.fraction > 0) {
                cr.setSourceRGBA(...s.fill);
                cr.moveTo(s.cx, s.cy);
                cr.arc(s.cx, s.cy, s.r, top, top + 2 * Math.PI * s.fraction);
                cr.closePath();
                cr.fill();
            }
            if (s.stroke && s.lineWidth > 0) {
                const lw = Math.min(s.lineWidth, s.r);
                cr.setSourceRGBA(...s.stroke);
                cr.setLineWidth(lw);
                cr.arc(s.cx, s.cy, s.r - lw / 2, 0, 2 * Math.PI);
                cr.stroke();
            }
        } else {
            cr.setSourceRGBA(...s.color);
            const layout = textLayout(s, () => PangoCairo.create_layout(cr), Pango);
            cr.moveTo(s.x, s.y);
            PangoCairo.show_layout(cr, layout);
        }
        cr.restore();
    }
}

/** A colour [r, g, b, a] from 0 to 1 as the bytes it was written with ("#RRGGBBAA"). */
function colorBytes(c) {
    return c.map(v => Math.round(v * 255));
}

const whole = v => Number.isInteger(v);

/**
 * The solid rectangles a rect shape is, [{x, y, w, h, color}], or null when only cairo draws it
 * the same (off whole pixels, dashed, or a stroke as wide as half the rect). The bands of a
 * stroke are cairo's own pixels on whole numbers: its stroke lies inside the rect (outer edge on
 * the rect's edge) with mitred corners, so four disjoint bands cover exactly what it covers.
 */
function solidsOf(s) {
    if (s.kind !== 'rect' || !whole(s.x) || !whole(s.y) || !whole(s.w) || !whole(s.h))
        return null;
    const lw = s.stroke ? s.lineWidth : 0;
    if (lw > 0 && (s.dash || !whole(lw) || 2 * lw >= s.w || 2 * lw >= s.h))
        return null;
    const out = [];
    const add = (x, y, w, h, color) => {
        if (w > 0 && h > 0)
            out.push({kind: 'solid', x, y, w, h, color: colorBytes(color)});
    };
    if (s.fill)
        add(s.x, s.y, s.w, s.h, s.fill);
    if (lw > 0) {
        add(s.x, s.y, s.w, lw, s.stroke);
        add(s.x, s.y + s.h - lw, s.w, lw, s.stroke);
        add(s.x, s.y + lw, lw, s.h - 2 * lw, s.stroke);
        add(s.x + s.w - lw, s.y + lw, lw, s.h - 2 * lw, s.stroke);
    }
    return out;
}

/**
 * The scene split into what the overlay keeps as actors, in paint order (last on top):
 *   {kind: 'solid', x, y, w, h, color: [r, g, b, a] bytes}   a filled axis-aligned rectangle on
 *       whole pixels: a rect's fill, or one of the four bands of its stroke (a ring);
 *   {kind: 'canvas', shapes}   at most one: every shape from the first that only cairo draws
 *       the same (text, a pie, a dash, anything off whole pixels) to the last, painted together.
 * A solid is a plain Clutter actor with a background colour: moving or recolouring it repaints
 * only where it was and where it is, with no cairo and no texture upload. One canvas, not one
 * per run, keeps a keyboard panel of a hundred labelled keys one texture; the ring, raised over
 * the panels it is shown with, stays solid above it.
 */
export function scenePieces(shapes) {
    const solids = shapes.map(solidsOf);
    const first = solids.indexOf(null), last = solids.lastIndexOf(null);
    if (first < 0)
        return solids.flat();
    return [...solids.slice(0, first).flat(), {kind: 'canvas', shapes: shapes.slice(first, last + 1)},
        ...solids.slice(last + 1).flat()];
}
