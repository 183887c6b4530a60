/* sluice-window-projector.c: projector mode, for a room where the back row
 * must read the lanes (docs/teaching.md, Projector mode)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include "sluice-window-private.h"
#include "sluice-theme.h"

/* Two halves, one switch: the widgets' text grows by the `projector` CSS
 * class on the window (ui/style.css: every label, entry, button, header,
 * tab, tooltip and menu of the window inherits its font size), and the
 * cairo-drawn chart and lanes by SluiceTimeView:projector, which scales
 * text, lines and marks alike and switches to the high-contrast palette.
 * Windows opened from this one (Compare…) follow its
 * SluiceWindow:projector.
 *
 * At 1024 pixels text 1.6 times larger leaves the window as much room as a
 * 640-pixel screen would: the header bar keeps its buttons' text and drops
 * what the room does not need there (the title, which the sidebar shows
 * large, and the minimise and maximise buttons; the window manager's keys
 * still do both); the sidebar gives the run its room and wraps its labels
 * or scrolls sideways (sluice-window.ui, sluice-config-panel.ui); and the
 * tabs below the run ask for no more than their natural height, so that
 * the chart keeps room for its lines under a legend of three rows. */

/* The tabs' height request keeps six rows of jobs or events at 1024×768;
 * in projector mode only their own natural height, and the chart and
 * the lanes the rest. */
static void
fit_tabs (SluiceWindow *self,
          gboolean      projector)
{
  if (projector)
    {
      gtk_widget_get_size_request (GTK_WIDGET (self->notebook), NULL, &self->tabs_height);
      gtk_widget_set_size_request (GTK_WIDGET (self->notebook), -1, -1);
    }
  else
    gtk_widget_set_size_request (GTK_WIDGET (self->notebook), -1, self->tabs_height);
}

/* On a projector the chart is at least this high, before the lanes take
 * their natural height: the back row reads its lines (issue 26). The
 * lanes give up room first, down to their own least. */
#define PROJECTOR_MIN_CHART_HEIGHT 200

/* A lesson's least width on a projector: its text is 1.6 times as large,
 * and its question, its choices and Run to Find Out must show whole at 768
 * pixels, in German too; the run keeps the rest of 1024 pixels (its
 * headings' least, about 580). Only a lesson asks for it: the
 * configuration alone leaves the run more room. */
#define PROJECTOR_LESSON_WIDTH 420

static void
fit_chart (SluiceWindow *self,
           gboolean      projector)
{
  gtk_widget_set_size_request (GTK_WIDGET (self->chart_view), -1, projector ? PROJECTOR_MIN_CHART_HEIGHT : -1);
  gtk_widget_set_size_request (self->lesson_scroller, projector ? PROJECTOR_LESSON_WIDTH : -1, -1);
}

/* GTK sizes a window's height for its narrowest width, where the big
 * text wraps into more lines than at the width it is shown at: a
 * projector's window is at least this wide (a projector is at least
 * 1024 pixels), so that it is no taller than 768 pixels either. */
#define PROJECTOR_MIN_WIDTH 1000

static void
fit_width (SluiceWindow *self,
           gboolean      projector)
{
  gtk_widget_set_size_request (GTK_WIDGET (self->main_stack), projector ? PROJECTOR_MIN_WIDTH : -1, -1);
  /* Two lines of big German text would leave the chart less than 200
   * pixels above a lesson's lanes at 768 pixels: one, and the rest in the
   * banner's tooltip (a lesson's sidebar says what the room must read). */
  gtk_label_set_lines (self->banner_label, projector ? 1 : -1);
  gtk_label_set_ellipsize (self->banner_label, projector ? PANGO_ELLIPSIZE_END : PANGO_ELLIPSIZE_NONE);
}

/**
 * _sluice_window_fit_counters:
 * @self: a #SluiceWindow
 *
 * Projector-size counters (seven a row, German titles) beside a lesson's
 * question need more than 1,024 pixels: in projector mode with a lesson
 * they go across the whole width, above the sidebar and the run; back
 * beside the chart otherwise (there the configuration gives up its width,
 * and the window must not grow taller by their row).
 */
void
_sluice_window_fit_counters (SluiceWindow *self)
{
  gboolean wide = self->projector && gtk_widget_get_visible (self->lesson_scroller);
  GtkWidget *counters = GTK_WIDGET (self->counters);
  GtkWidget *parent = gtk_widget_get_parent (counters);
  GtkWidget *column = gtk_widget_get_parent (GTK_WIDGET (self->banner_label));
  GtkWidget *target;

  /* The banner's row sits in the run's column, the counters right below. */
  column = column != NULL ? gtk_widget_get_parent (column) : NULL;
  target = wide ? self->wide_counters_slot : column;
  if (target == NULL || parent == target)
    return;

  g_object_ref (counters);
  gtk_box_remove (GTK_BOX (parent), counters);
  if (wide)
    gtk_box_append (GTK_BOX (target), counters);
  else
    gtk_box_insert_child_after (GTK_BOX (target), counters,
                                gtk_widget_get_parent (GTK_WIDGET (self->banner_label)));
  g_object_unref (counters);
}

/* The header bar without the title and with a close button only. */
static void
fit_header_bar (SluiceWindow *self,
                gboolean      projector)
{
  GtkWidget *header = gtk_window_get_titlebar (GTK_WINDOW (self));

  if (!GTK_IS_HEADER_BAR (header))
    return;

  gtk_header_bar_set_decoration_layout (GTK_HEADER_BAR (header), projector ? ":close" : NULL);
  gtk_widget_set_visible (gtk_widget_get_parent (GTK_WIDGET (self->title_label)), !projector);
}

/**
 * sluice_window_get_projector:
 * @self: a #SluiceWindow
 *
 * Returns: whether the window is in projector mode
 */
gboolean
sluice_window_get_projector (SluiceWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), FALSE);
  return self->projector;
}

/**
 * sluice_window_set_projector:
 * @self: a #SluiceWindow
 * @projector: whether to show the run for a projector
 *
 * Sets #SluiceWindow:projector: every text of the window
 * %SLUICE_RENDER_PROJECTOR_SCALE times larger, the chart's and the lanes'
 * lines and marks as much thicker, in the high-contrast palette. The
 * `win.projector` action (Projector Mode in the main menu, F5) toggles it,
 * and the application's settings keep it (the `projector` key).
 */
void
sluice_window_set_projector (SluiceWindow *self,
                             gboolean      projector)
{
  g_return_if_fail (SLUICE_IS_WINDOW (self));

  if (!sluice_window_switch_projector (GTK_WIDGET (self), &self->projector, projector))
    return;
  fit_header_bar (self, projector);
  fit_tabs (self, projector);
  fit_chart (self, projector);
  fit_width (self, projector);
  _sluice_window_fit_counters (self);
  sluice_time_view_set_projector (SLUICE_TIME_VIEW (self->chart_view), projector);
  sluice_time_view_set_projector (SLUICE_TIME_VIEW (self->timeline_view), projector);
  g_object_notify (G_OBJECT (self), "projector");
}

/* ---- the hold screen ----------------------------------------------------
 * A presenter blanks the projector while the room predicts or talks
 * (PowerPoint's and Impress' B key): the window shows only its title, large,
 * and a button back. The run goes on behind it; B again, the button or
 * any other page shown (Ctrl+L) ends the hold. */

/**
 * _sluice_window_hold_screen:
 * @self: a #SluiceWindow
 * @hold: whether to cover the window with the hold screen
 *
 * Sets #SluiceWindow:hold-screen (`win.hold-screen`, B).
 */
void
_sluice_window_hold_screen (SluiceWindow *self,
                            gboolean      hold)
{
  if (hold == _sluice_window_get_screen_held (self))
    return;

  if (hold)
    {
      /* Names from the template: static strings. */
      self->held_page = g_strcmp0 (gtk_stack_get_visible_child_name (self->main_stack), "lessons") == 0
                        ? "lessons" : "playground";
      gtk_stack_set_visible_child_name (self->main_stack, "hold");
      gtk_widget_grab_focus (GTK_WIDGET (self->hold_resume_button));
    }
  else
    {
      gtk_stack_set_visible_child_name (self->main_stack, self->held_page);
      self->held_page = NULL;
    }
}

/**
 * _sluice_window_get_screen_held:
 * @self: a #SluiceWindow
 *
 * Returns: whether the hold screen covers the window
 *   (#SluiceWindow:hold-screen)
 */
gboolean
_sluice_window_get_screen_held (SluiceWindow *self)
{
  return self->main_stack != NULL && g_strcmp0 (gtk_stack_get_visible_child_name (self->main_stack), "hold") == 0;
}
