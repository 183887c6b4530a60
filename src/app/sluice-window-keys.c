/* sluice-window-keys.c: the keys that drive a run, wherever the focus is
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include "sluice-window-private.h"

/* The keys of a run must work after a preset was picked from the menu (the
 * focus is back on the menu button), after a header button was clicked (the
 * button has the focus, and Space would press it again), and while a field
 * of the configuration has the focus. So they live in one controller on the
 * window, in the capture phase: the window sees them before the focus
 * widget does.
 *
 * Two exceptions, so that the keyboard still edits and still picks:
 * - a text field being edited (an editable GtkText, as in an entry or a
 *   spin button, or an editable text view, with the focus) keeps Space, →,
 *   + and − for typing and moving its cursor;
 * - an open menu or pop-up keeps Space, →, + and − and Escape (which closes
 *   it): a menu grabs the keyboard while it is open, and a pop-up that does
 *   not (a drop-down's list) is let through here.
 * Every other key of the run (Ctrl+R, Escape outside menus, Ctrl+.,
 * Ctrl+Backspace, F9) is the window's wherever the focus is. A key whose action
 * is disabled now (Escape between runs) goes on to the focus widget, as if
 * the window had no such key. The shortcuts window says the same. */

typedef enum {
  KEY_ALWAYS = 0,
  KEY_TYPED  = 1 << 0,  /* a text field being edited takes it */
  KEY_MENU   = 1 << 1,  /* an open menu or pop-up takes it */
} KeyOwner;

typedef struct {
  const char *trigger;
  const char *action;   /* `win.` on the window, `clock.` on the clock controls,
                         * `scrub.` on the scrubber */
  KeyOwner    yields_to;
} RunKey;

static const RunKey run_keys[] = {
  { "<Control>r", "win.run", KEY_ALWAYS },
  { "space", "clock.pause", KEY_TYPED | KEY_MENU },
  { "Right|KP_Right", "clock.step", KEY_TYPED | KEY_MENU },
  /* After a run (the clock's keys are off then), the same keys scrub. */
  { "space", "scrub.play", KEY_TYPED | KEY_MENU },
  { "Right|KP_Right", "scrub.next-event", KEY_TYPED | KEY_MENU },
  { "Left|KP_Left", "scrub.previous-event", KEY_TYPED | KEY_MENU },
  { "<Shift>Right|<Shift>KP_Right", "scrub.forward", KEY_TYPED | KEY_MENU },
  { "<Shift>Left|<Shift>KP_Left", "scrub.back", KEY_TYPED | KEY_MENU },
  { "Home|KP_Home", "scrub.start", KEY_TYPED | KEY_MENU },
  { "End|KP_End", "scrub.end", KEY_TYPED | KEY_MENU },
  { "plus|equal|KP_Add", "clock.faster", KEY_TYPED | KEY_MENU },
  { "minus|KP_Subtract", "clock.slower", KEY_TYPED | KEY_MENU },
  { "Escape", "win.request-stop", KEY_MENU },
  { "<Control>period", "win.cancel", KEY_ALWAYS },
  { "<Control>BackSpace", "win.reset", KEY_ALWAYS },
  { "F9", "win.show-sidebar", KEY_ALWAYS },
  { "b", "win.hold-screen", KEY_TYPED | KEY_MENU },
};

static gboolean
is_edited_text (GtkWidget *focus)
{
  if (GTK_IS_EDITABLE (focus))
    return gtk_editable_get_editable (GTK_EDITABLE (focus));
  if (GTK_IS_TEXT_VIEW (focus))
    return gtk_text_view_get_editable (GTK_TEXT_VIEW (focus));
  return FALSE;
}

static gboolean
activate_run_key (GtkWidget *widget,
                  GVariant  *args,
                  gpointer   user_data)
{
  SluiceWindow *self = SLUICE_WINDOW (widget);
  const RunKey *key = user_data;
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));
  g_autoptr(GtkShortcutAction) action = NULL;
  GtkWidget *target;

  if (focus != NULL)
    {
      if ((key->yields_to & KEY_TYPED) && is_edited_text (focus))
        return FALSE;
      if ((key->yields_to & KEY_MENU) && gtk_widget_get_ancestor (focus, GTK_TYPE_POPOVER) != NULL)
        return FALSE;
    }

  /* As a named action: not handled when the action is disabled. */
  if (g_str_has_prefix (key->action, "clock."))
    target = GTK_WIDGET (self->clock_controls);
  else if (g_str_has_prefix (key->action, "scrub."))
    target = GTK_WIDGET (self->scrubber);
  else
    target = widget;
  action = gtk_named_action_new (key->action);
  return gtk_shortcut_action_activate (action, GTK_SHORTCUT_ACTION_EXCLUSIVE, target, NULL);
}

/**
 * _sluice_window_add_run_keys:
 * @self: a #SluiceWindow
 *
 * Adds the controller of the run's keys, named `sluice-run-keys`, to the
 * window, in the capture phase and with the global scope.
 */
void
_sluice_window_add_run_keys (SluiceWindow *self)
{
  GtkEventController *controller = gtk_shortcut_controller_new ();
  GtkShortcutController *shortcuts = GTK_SHORTCUT_CONTROLLER (controller);

  gtk_event_controller_set_name (controller, "sluice-run-keys");
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  gtk_shortcut_controller_set_scope (shortcuts, GTK_SHORTCUT_SCOPE_GLOBAL);
  for (guint i = 0; i < G_N_ELEMENTS (run_keys); i++)
    gtk_shortcut_controller_add_shortcut (shortcuts,
                                          gtk_shortcut_new (gtk_shortcut_trigger_parse_string (run_keys[i].trigger),
                                                            gtk_callback_action_new (activate_run_key,
                                                                                     (gpointer) &run_keys[i],
                                                                                     NULL)));
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
}
