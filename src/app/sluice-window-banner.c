/* sluice-window-banner.c: the window's banner: one line that says what is
 * going on, or how the run ended
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-window-private.h"

/* A leaf of the window's files (see sluice-window-private.h): every flow
 * says what happened here, and this file calls none of them. The banner
 * is a label of the window's template, with the lints' badge in its row:
 * it has no state of its own but the last line, kept for after a pause. */

static void
show_banner (SluiceWindow *self,
             BannerKind    kind,
             const char   *text)
{
  /* The banner's row, with the lints' badge in it, takes its colour. */
  GtkWidget *banner = gtk_widget_get_parent (GTK_WIDGET (self->banner_label));

  gtk_label_set_text (self->banner_label, text);
  /* On a projector the banner keeps to two lines: the whole line is its
   * tooltip. */
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->banner_label), text);
  gtk_widget_remove_css_class (banner, "banner-ok");
  gtk_widget_remove_css_class (banner, "banner-error");
  if (kind == BANNER_OK)
    gtk_widget_add_css_class (banner, "banner-ok");
  else if (kind == BANNER_ERROR)
    gtk_widget_add_css_class (banner, "banner-error");
}

static gboolean
is_paused (SluiceWindow *self)
{
  return sluice_clock_controls_get_paused (self->clock_controls);
}

/**
 * _sluice_window_set_banner:
 * @self: a #SluiceWindow
 * @kind: how the line looks
 * @text: the line
 *
 * Says what is going on, or how the run ended; while the run's clock is
 * paused, after "Paused —", so that the banner keeps saying that the run
 * stands still.
 */
void
_sluice_window_set_banner (SluiceWindow *self,
                           BannerKind    kind,
                           const char   *text)
{
  g_autofree char *paused = NULL;

  g_free (self->banner_text);
  self->banner_text = g_strdup (text);
  self->banner_kind = kind;

  if (!is_paused (self))
    {
      show_banner (self, kind, text);
      return;
    }

  /* Translators: the banner when something happens while the run's clock
   * is paused, such as a stop request; %s says what happened */
  paused = g_strdup_printf (_("Paused — %s"), text);
  show_banner (self, kind, paused);
}

/* "Paused" while the run's clock stands still; what was said last once it
 * goes on. */
static void
on_paused_changed (SluiceWindow *self)
{
  if (is_paused (self))
    show_banner (self, BANNER_INFO,
                 _("Paused: Space resumes, → steps to the next timer, Escape requests a stop."));
  else if (self->banner_text != NULL)
    show_banner (self, self->banner_kind, self->banner_text);
}

/**
 * _sluice_window_show_ready:
 * @self: a #SluiceWindow
 *
 * Says how to start, for a new scenario or after a reset.
 */
void
_sluice_window_show_ready (SluiceWindow *self)
{
  _sluice_window_set_banner (self, BANNER_INFO,
                             _("Ready: press Run (Ctrl+R) to start, or change the configuration on the left."));
}

/**
 * _sluice_window_connect_banner:
 * @self: a #SluiceWindow with its template
 *
 * The banner follows the clock's pause.
 */
void
_sluice_window_connect_banner (SluiceWindow *self)
{
  g_signal_connect_swapped (self->clock_controls, "notify::paused", G_CALLBACK (on_paused_changed), self);
}

/**
 * sluice_window_get_banner:
 * @self: a #SluiceWindow
 *
 * Returns: the one line that says what is going on or how the run ended
 */
const char *
sluice_window_get_banner (SluiceWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), NULL);
  return gtk_label_get_text (self->banner_label);
}
