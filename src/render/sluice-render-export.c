/* sluice-render-export.c: the chart above the lanes, as a PNG, SVG or PDF file
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-render-export.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <gio/gio.h>
#include <glib/gi18n.h>
#include <math.h>

#include "sluice-file-part-private.h"
#include "sluice-palette.h"
#include "sluice-render-chart.h"
#include "sluice-render-timeline.h"

/**
 * sluice_render_run:
 * @cr: the context to draw on
 * @model: a finished (or paused) run
 * @width: the picture's width
 * @height: the picture's height
 * @limits: the pool's limits, for the chart's lines
 * @dark: whether to use the dark palette
 *
 * Draws the whole run, chart above lanes, sharing one time span so that
 * the two read together.
 */
void
sluice_render_run (cairo_t                 *cr,
                   SluiceTimeline          *model,
                   double                   width,
                   double                   height,
                   const SluiceChartLimits *limits,
                   gboolean                 dark)
{
  SluicePaletteFlags palette = dark ? SLUICE_PALETTE_DARK : SLUICE_PALETTE_LIGHT;
  gint64 t0, t1;
  double lanes_height, chart_height;

  g_return_if_fail (cr != NULL);
  g_return_if_fail (SLUICE_IS_TIMELINE (model));
  g_return_if_fail (limits != NULL);

  /* An empty or instantaneous run still gets a readable axis; a little
   * room after the last event keeps the marks at the end whole. */
  t0 = sluice_timeline_get_start_time (model);
  t1 = sluice_timeline_get_end_time (model);
  t1 = t1 > t0 ? t1 + (t1 - t0) / 40 : t0 + G_USEC_PER_SEC;

  /* The lanes take what they need, the chart the rest. */
  lanes_height = sluice_render_timeline_get_natural_height_for_width (model, width);
  chart_height = MAX (160., height - lanes_height);
  lanes_height = MAX (height - chart_height, 1.);

  cairo_save (cr);
  sluice_palette_set_source (cr, &sluice_palette_get (palette)->background);
  cairo_paint (cr);
  sluice_render_chart (cr, model, &(SluiceRenderFrame) { width, chart_height, t0, t1, -1, palette }, limits);
  cairo_restore (cr);

  cairo_save (cr);
  cairo_translate (cr, 0., chart_height);
  cairo_rectangle (cr, 0., 0., width, lanes_height);
  cairo_clip (cr);
  sluice_render_timeline (cr, model, &(SluiceRenderFrame) { width, lanes_height, t0, t1, -1, palette }, -1);
  cairo_restore (cr);
}

/* Where cairo writes: the stream of the file being written, and the
 * first error writing to it. */
typedef struct {
  GOutputStream *stream;
  GError        *error;
} Sink;

static cairo_status_t
write_to_sink (void                *closure,
               const unsigned char *data,
               unsigned int         length)
{
  Sink *sink = closure;

  if (sink->error == NULL)
    g_output_stream_write_all (sink->stream, data, length, NULL, NULL, &sink->error);
  return sink->error == NULL ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

static void
set_write_error (const char  *path,
                 const char  *reason,
                 gint         code,
                 GError     **error)
{
  g_set_error (error, G_IO_ERROR, code,
               /* Translators: exporting a picture failed; %s is a file, then the reason */
               _("Could not write “%s”: %s"), path, reason);
}

/* What went wrong: the stream's error first (it says why, cairo only that
 * a write failed), then cairo's. */
static gboolean
check_status (cairo_status_t   status,
              Sink            *sink,
              const char      *path,
              GError         **error)
{
  if (sink->error != NULL)
    {
      set_write_error (path, sink->error->message, sink->error->code, error);
      return FALSE;
    }
  if (status == CAIRO_STATUS_SUCCESS)
    return TRUE;

  set_write_error (path, cairo_status_to_string (status),
                   status == CAIRO_STATUS_WRITE_ERROR ? G_IO_ERROR_FAILED : G_IO_ERROR_INVALID_DATA, error);
  return FALSE;
}

/* What is exported: the whole run, at a size, in a palette. */
typedef struct {
  SluiceTimeline    *model;
  double             width;
  double             height;
  SluiceChartLimits  limits;
  gboolean           dark;
} Picture;

static cairo_status_t
export_png (const Picture *picture,
            Sink          *sink)
{
  cairo_surface_t *surface;
  cairo_t *cr;
  cairo_status_t status;

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) ceil (picture->width),
                                        (int) ceil (picture->height));
  cr = cairo_create (surface);
  sluice_render_run (cr, picture->model, picture->width, picture->height, &picture->limits, picture->dark);
  status = cairo_status (cr);
  cairo_destroy (cr);

  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_write_to_png_stream (surface, write_to_sink, sink);
  cairo_surface_destroy (surface);
  return status;
}

/* SVG and PDF: vector surfaces that write to the sink as they are finished. */
static cairo_status_t
export_vector (cairo_surface_t *surface,
               const Picture   *picture)
{
  cairo_t *cr = cairo_create (surface);
  cairo_status_t status;

  sluice_render_run (cr, picture->model, picture->width, picture->height, &picture->limits, picture->dark);
  status = cairo_status (cr);
  cairo_destroy (cr);
  cairo_surface_finish (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);
  return status;
}

typedef enum {
  FORMAT_PNG,
  FORMAT_SVG,
  FORMAT_PDF,
} Format;

static cairo_status_t
export_format (Format         format,
               const Picture *picture,
               Sink          *sink)
{
  switch (format)
    {
    case FORMAT_SVG:
      return export_vector (cairo_svg_surface_create_for_stream (write_to_sink, sink, picture->width, picture->height),
                            picture);
    case FORMAT_PDF:
      return export_vector (cairo_pdf_surface_create_for_stream (write_to_sink, sink, picture->width, picture->height),
                            picture);
    case FORMAT_PNG:
    default:
      return export_png (picture, sink);
    }
}

/**
 * sluice_render_export:
 * @model: the run
 * @path: the file to write; its extension, `.png`, `.svg` or `.pdf`, picks
 *   the format
 * @width: the picture's width, in pixels (points for SVG and PDF)
 * @height: the picture's height
 * @queue_capacity: the queue size, for the chart's capacity line
 * @lead_bound: `queue-size + workers + 1`, for the chart's bound line
 * @dark: whether to use the dark palette
 * @error: return location for a #GError
 *
 * Writes the whole run, chart above lanes (see sluice_render_run()), as
 * a picture.
 *
 * Returns: whether the file was written; otherwise @error says why
 *   (%G_IO_ERROR_NOT_SUPPORTED for another extension)
 */
gboolean
sluice_render_export (SluiceTimeline  *model,
                      const char      *path,
                      double           width,
                      double           height,
                      guint            queue_capacity,
                      guint            lead_bound,
                      gboolean         dark,
                      GError         **error)
{
  g_autoptr(SluiceFilePart) file = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *lower = NULL;
  Picture picture = { model, width, height, { queue_capacity, lead_bound }, dark };
  Sink sink = { NULL, NULL };
  cairo_status_t status;
  Format format;
  gboolean ok;

  g_return_val_if_fail (SLUICE_IS_TIMELINE (model), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (width >= 1. && height >= 1., FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  lower = g_ascii_strdown (path, -1);
  if (g_str_has_suffix (lower, ".png"))
    format = FORMAT_PNG;
  else if (g_str_has_suffix (lower, ".svg"))
    format = FORMAT_SVG;
  else if (g_str_has_suffix (lower, ".pdf"))
    format = FORMAT_PDF;
  else
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   /* Translators: %s is a file name */
                   _("Cannot export “%s”: the name must end in .png, .svg or .pdf"), path);
      return FALSE;
    }

  /* Written as @path.part and renamed once whole: a failed or killed
   * export leaves @path as it was. */
  file = _sluice_file_part_new (path, &local_error);
  if (file == NULL)
    {
      set_write_error (path, local_error->message, local_error->code, error);
      return FALSE;
    }
  sink.stream = _sluice_file_part_get_stream (file);
  status = export_format (format, &picture, &sink);
  ok = check_status (status, &sink, path, error);
  g_clear_error (&sink.error);
  if (ok && !_sluice_file_part_commit (file, &local_error))
    {
      set_write_error (path, local_error->message, local_error->code, error);
      return FALSE;
    }
  return ok;
}
