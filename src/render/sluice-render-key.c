/* sluice-render-key.c: the keys (legends) along the top of the views, and
 * the lanes' key
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-render-bar-private.h"
#include "sluice-render-private.h"

#include <glib/gi18n.h>

#define KEY_PADDING       3.   /* above a key's first row and below its last */
#define KEY_MAX_ROWS      4
#define KEY_SPACING       16.  /* between entries */
#define KEY_SPACING_TIGHT 8.   /* between entries, when that keeps them on one row */
#define KEY_SWATCH_SPACE  24.  /* the lanes' key: a swatch and the gap before its label */
/* The lanes' key takes at most two rows: at a projector's 1024 pixels a
 * key of every kind wrapped to four and left the lanes a third of their
 * view. It explains the kinds the run has, so two rows hold them. */
#define LANES_KEY_MAX_ROWS 2
#define LANES_KEY_WIDE_LEFT 4.  /* where it starts when the lanes' edge leaves too little room */

/* Measures @texts without the view's cairo_t, so that a layout computed
 * for hit testing or by a test (which have none) is the one drawing uses. */
static void
measure_texts (const char * const *texts,
               guint               n_texts,
               double             *widths)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  cairo_t *cr = cairo_create (surface);
  PangoLayout *layout = _sluice_render_create_layout (cr, FALSE);

  for (guint i = 0; i < n_texts; i++)
    if (texts[i] != NULL)
      _sluice_render_get_text_size (layout, texts[i], &widths[i], NULL);
    else
      widths[i] = 0.;

  g_object_unref (layout);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

/**
 * _sluice_render_layout_key:
 * @key: the entries
 * @left: where the key starts
 * @right: where it must end
 * @rects: (out caller-allocates): each entry's rectangle
 * @n_rows: (out): how many rows it takes
 *
 * Places a key's entries (a swatch and a label each) from @left to @right:
 * on one row if they fit there (with less space between them if need be),
 * else wrapped onto up to four rows (or @key's max_rows). An entry that
 * fits nowhere is left out (width 0), and the ones after it still get
 * their chance.
 *
 * Returns: the key's height, with its padding
 */
double
_sluice_render_layout_key (const SluiceKey *key,
                           double           left,
                           double           right,
                           SluiceRect      *rects,
                           guint           *n_rows)
{
  const char * const *labels = key->labels;
  guint n_entries = key->n_entries;
  g_autofree double *widths = g_new (double, n_entries);
  double one_row = 0.;
  double spacing = KEY_SPACING;
  double x = left;
  guint max_rows = key->max_rows > 0 ? key->max_rows : KEY_MAX_ROWS;
  guint row = 0, n_shown = 0;

  measure_texts (labels, n_entries, widths);
  for (guint i = 0; i < n_entries; i++)
    if (labels[i] != NULL)
      {
        widths[i] += key->swatch_space;
        one_row += widths[i];
        n_shown++;
      }

  if (key->spacing > 0.)
    spacing = key->spacing;
  else if (n_shown > 0 &&
           left + one_row + (n_shown - 1) * KEY_SPACING > right &&
           left + one_row + (n_shown - 1) * KEY_SPACING_TIGHT <= right)
    spacing = KEY_SPACING_TIGHT;

  *n_rows = 0;
  for (guint i = 0; i < n_entries; i++)
    {
      double w = widths[i];

      rects[i] = (SluiceRect) { left, 0., 0., 0. };
      if (labels[i] == NULL)
        continue;
      if (x > left && x + w > right)
        {
          row++;
          x = left;
        }
      if (row >= max_rows || x + w > right)
        continue;

      rects[i] = (SluiceRect) {
        x, KEY_PADDING + row * SLUICE_RENDER_KEY_ROW_HEIGHT, w, SLUICE_RENDER_KEY_ROW_HEIGHT,
      };
      *n_rows = row + 1;
      x += w + spacing;
    }

  return SLUICE_RENDER_KEY_HEIGHT + (MAX (*n_rows, 1) - 1) * SLUICE_RENDER_KEY_ROW_HEIGHT;
}

/**
 * _sluice_render_draw_key:
 * @cr: the context to draw on
 * @layout: the views' text layout
 * @palette: the colours
 * @key: the entries, as given to _sluice_render_layout_key(), with the
 *   function that draws their swatches
 * @rects: each entry's rectangle, from _sluice_render_layout_key()
 *
 * Draws a key where _sluice_render_layout_key() placed it: each entry's
 * swatch, then its label, skipping the entries left out or not shown.
 */
void
_sluice_render_draw_key (cairo_t             *cr,
                         PangoLayout         *layout,
                         const SluicePalette *palette,
                         const SluiceKey     *key,
                         const SluiceRect    *rects)
{
  for (guint i = 0; i < key->n_entries; i++)
    {
      const SluiceRect *rect = &rects[i];
      double y = rect->y + rect->height / 2. - 1.;

      if (rect->width <= 0.)
        continue;
      key->draw_swatch (cr, palette, i, rect->x, y);
      sluice_palette_set_source (cr, &palette->foreground);
      _sluice_render_draw_text (cr, layout, key->labels[i], rect->x + key->swatch_space, y, 0., 0.5);
    }
}

/* ---- the lanes' key ---------------------------------------------------- */

typedef enum {
  KEY_OK,
  KEY_RETRIED,
  KEY_FAILED,
  KEY_TIMED_OUT,
  KEY_CANCELLED,
  KEY_RUNNING,
  KEY_DEADLINE,
  KEY_CANCEL_REQUEST,
  /* The retry policy's marks, in the order of SluiceTimelineMarkKind. */
  KEY_BACKOFF,
  KEY_RETRY_SKIPPED,
  KEY_SHED,
  N_KEYS
} Key;

G_STATIC_ASSERT (N_KEYS == SLUICE_LANES_N_KEYS);
G_STATIC_ASSERT (KEY_BACKOFF == SLUICE_LANES_N_BASIC_KEYS);
G_STATIC_ASSERT (KEY_BACKOFF + SLUICE_TIMELINE_MARK_SHED == KEY_SHED);
G_STATIC_ASSERT (SLUICE_LANES_BASIC_KEYS == (1u << KEY_BACKOFF) - 1);

/* The short labels, for a key that needs them to keep to two rows (a
 * projector's large German text); NULL where the full one is short. */
static const char *
key_short_label (Key key)
{
  switch (key)
    {
    /* Translators: the lanes' key in short form, when the full labels take
     * more than two rows (a projector's large text): one short word each */
    case KEY_RETRIED:        return C_("lanes key, short", "retried");
    /* Translators: see "retried": an item that failed for good */
    case KEY_FAILED:         return C_("lanes key, short", "failed");
    /* Translators: see "retried": an attempt that timed out */
    case KEY_TIMED_OUT:      return C_("lanes key, short", "timeout");
    /* Translators: see "retried": the pool asked an attempt to stop */
    case KEY_CANCEL_REQUEST: return C_("lanes key, short", "cancel");
    /* Translators: see "retried": the retry policy refused a retry */
    case KEY_RETRY_SKIPPED:  return C_("lanes key, short", "skipped");
    default:                 return NULL;
    }
}

static const char *
key_label (Key key)
{
  switch (key)
    {
    case KEY_OK:             return _("ok");
    case KEY_RETRIED:        return _("failed, retried");
    case KEY_FAILED:         return _("failed for good");
    case KEY_TIMED_OUT:      return _("timed out");
    case KEY_CANCELLED:      return _("cancelled");
    case KEY_RUNNING:        return _("running");
    case KEY_DEADLINE:       return _("deadline");
    case KEY_CANCEL_REQUEST: return _("cancel request");
    /* Translators: the lanes' key: the wait before a retry */
    case KEY_BACKOFF:        return _("backoff");
    /* Translators: the lanes' key: the retry policy refused a retry
     * (the item's deadline or the retry budget) */
    case KEY_RETRY_SKIPPED:  return _("retry skipped");
    case KEY_SHED:
    default:
      /* Translators: the lanes' key: an item dropped from the queue
       * because its deadline had passed (load shedding) */
      return _("shed");
    }
}

/* The labels of the entries in @kinds (1 << Key each), short ones if
 * @short_form; NULL for others. */
static void
get_key_labels (const char *labels[N_KEYS],
                guint       kinds,
                gboolean    short_form)
{
  for (Key key = 0; key < N_KEYS; key++)
    {
      const char *short_label = short_form ? key_short_label (key) : NULL;

      labels[key] = (kinds & (1u << key)) == 0 ? NULL : short_label != NULL ? short_label : key_label (key);
    }
}

/* The entry for each look of a bar (see the lanes' bar_color()). */
static const Key look_keys[SLUICE_TIMELINE_N_BAR_LOOKS] = {
  [SLUICE_TIMELINE_BAR_RUNNING] = KEY_RUNNING,
  [SLUICE_TIMELINE_BAR_OK] = KEY_OK,
  [SLUICE_TIMELINE_BAR_FAILED] = KEY_FAILED,
  [SLUICE_TIMELINE_BAR_RETRIED] = KEY_RETRIED,
  [SLUICE_TIMELINE_BAR_TIMED_OUT] = KEY_TIMED_OUT,
  [SLUICE_TIMELINE_BAR_CANCELLED] = KEY_CANCELLED,
  [SLUICE_TIMELINE_BAR_DEADLINE] = KEY_DEADLINE,
  [SLUICE_TIMELINE_BAR_CANCEL_REQUEST] = KEY_CANCEL_REQUEST,
};

/**
 * _sluice_lanes_get_key_kinds:
 * @model: the run
 *
 * The entries the lanes' key explains: what @model's lanes show (the bars'
 * outcomes, the deadlines drawn, the cancel requests, the retry policy's
 * marks), so that the key keeps to a row or two and the lanes get the
 * room. The model keeps how its bars look as they change: the key is
 * laid out at every frame (measured, then drawn), and reading every bar
 * for it grew with the run (issue 24, item 7).
 *
 * Returns: 1 << the key's entry, for each entry shown; 0 for a run without
 *   bars yet (see _sluice_lanes_layout_key())
 */
guint
_sluice_lanes_get_key_kinds (SluiceTimeline *model)
{
  guint looks = sluice_timeline_get_bar_looks (model);
  guint kinds = 0;

  if (sluice_timeline_get_n_bars (model) == 0)
    return 0;
  for (guint look = 0; look < SLUICE_TIMELINE_N_BAR_LOOKS; look++)
    if (looks & (1u << look))
      kinds |= 1u << look_keys[look];
  for (SluiceTimelineMarkKind kind = SLUICE_TIMELINE_MARK_BACKOFF; kind <= SLUICE_TIMELINE_MARK_SHED; kind++)
    if (sluice_timeline_has_mark_kind (model, kind))
      kinds |= 1u << (KEY_BACKOFF + kind);
  return kinds;
}

/* Whether every entry with a label got its place. */
static gboolean
all_placed (const char * const *labels,
            const SluiceRect   *rects)
{
  for (guint i = 0; i < N_KEYS; i++)
    if (labels[i] != NULL && rects[i].width <= 0.)
      return FALSE;
  return TRUE;
}

/* Places the lanes' key from @left to @right: the entries in @key_kinds on
 * up to two rows, from the view's left edge (over the lanes' names) and
 * closer together when that is what keeps them all, in short labels when
 * even that does not (those that still do not fit are left out); or, for 0 (no run, or
 * no bars yet), the basic entries, which say what is to come, on up to
 * four: empty lanes lose nothing to them, and the first bar brings the
 * run's own key. */
void
_sluice_lanes_layout_key (SluiceLanesLayout *layout,
                          guint              key_kinds,
                          double             left,
                          double             right)
{
  const char *labels[N_KEYS];
  SluiceKey key = { labels, N_KEYS, KEY_SWATCH_SPACE, NULL, key_kinds != 0 ? LANES_KEY_MAX_ROWS : 0, 0. };

  if (key_kinds == 0)
    key_kinds = SLUICE_LANES_BASIC_KEYS;
  layout->key_kinds = key_kinds;
  layout->key_short = FALSE;
  get_key_labels (labels, key_kinds, FALSE);
  layout->key_height = _sluice_render_layout_key (&key, left, right, layout->key, &layout->key_rows);
  if (key.max_rows == LANES_KEY_MAX_ROWS && !all_placed (labels, layout->key))
    {
      key.spacing = KEY_SPACING_TIGHT;
      layout->key_height = _sluice_render_layout_key (&key, LANES_KEY_WIDE_LEFT, right, layout->key,
                                                      &layout->key_rows);
    }
  if (key.max_rows == LANES_KEY_MAX_ROWS && !all_placed (labels, layout->key))
    {
      layout->key_short = TRUE;
      get_key_labels (labels, key_kinds, TRUE);
      layout->key_height = _sluice_render_layout_key (&key, LANES_KEY_WIDE_LEFT, right, layout->key,
                                                      &layout->key_rows);
    }
}

/* A swatch in the key looks like what it explains: the same colours,
 * hatching and marks as the bars, at a small size. */
static void
draw_key_swatch (cairo_t             *cr,
                 const SluicePalette *palette,
                 guint                key,
                 double               x,
                 double               center_y)
{
  const SluiceColor *colors[] = {
    &palette->ok, &palette->retried, &palette->failed,
    &palette->timed_out, &palette->cancelled, &palette->running,
  };
  double w = 18., h = 12.;
  double y = center_y - 6.;

  if (key == KEY_DEADLINE)
    {
      _sluice_render_draw_deadline_mark (cr, palette, x + w / 2., y - 1., y + h + 1., 1.);
      return;
    }
  if (key == KEY_CANCEL_REQUEST)
    {
      _sluice_render_draw_cancel_mark (cr, palette, x + w / 2., y + h / 2., 5., 1.);
      return;
    }
  if (key == KEY_BACKOFF)
    {
      _sluice_render_draw_backoff_mark (cr, palette, x, x + w, y, y + h, 1.);
      return;
    }
  if (key == KEY_RETRY_SKIPPED)
    {
      _sluice_render_draw_skip_mark (cr, palette, x + w / 2., y + h / 2., 5.5, 1.);
      return;
    }
  if (key == KEY_SHED)
    {
      _sluice_render_draw_shed_mark (cr, palette, x + w / 2., y + h / 2., 5.5, 1.);
      return;
    }

  /* The same fills as the bars: dotted when cancelled, open while running. */
  _sluice_render_fill_bar (cr, colors[key],
                           key == KEY_CANCELLED ? SLUICE_BAR_FILL_DOTTED
                           : key == KEY_RUNNING ? SLUICE_BAR_FILL_OPEN
                                                : SLUICE_BAR_FILL_FLAT,
                           &(SluiceRect) { x, y, w, h }, 1.);
  if (key == KEY_RETRIED)
    _sluice_render_draw_hatching (cr, x, y, w, h);
  else if (key == KEY_FAILED)
    _sluice_render_draw_cross_mark (cr, x + w / 2., y + h / 2., 4.5);
  else if (key == KEY_TIMED_OUT)
    _sluice_render_draw_clock_mark (cr, x + w / 2., y + h / 2., 4.5);
}

/* The key along the top, where _sluice_lanes_get_layout() placed it: on
 * one row, or wrapped when the labels (German ones, say) are too long. */
void
_sluice_lanes_draw_key (cairo_t                 *cr,
                        PangoLayout             *layout,
                        const SluicePalette     *palette,
                        const SluiceLanesLayout *lanes)
{
  const char *labels[N_KEYS];
  SluiceKey key = { labels, N_KEYS, KEY_SWATCH_SPACE, draw_key_swatch };

  get_key_labels (labels, lanes->key_kinds, lanes->key_short);
  _sluice_render_draw_key (cr, layout, palette, &key, lanes->key);
}
