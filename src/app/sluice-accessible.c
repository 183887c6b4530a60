/* sluice-accessible.c: accessible names that read as the labels do
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-accessible.h"

/* GTK 4.8 gives a button with a mnemonic the raw label ("_Run") as its
 * accessible label, and a screen reader then reads it before the label's
 * own text: "_Run Run". Without that property the name comes from what the
 * button shows, "Run", as it reads. GTK sets it again whenever the label
 * changes (Request Stop becomes Close), so it is taken away each time. */
static void
drop_raw_label (GtkButton *button)
{
  if (gtk_button_get_use_underline (button) && gtk_button_get_label (button) != NULL)
    gtk_accessible_reset_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL);
}

static void
on_label_changed (GtkButton  *button,
                  GParamSpec *pspec,
                  gpointer    user_data)
{
  drop_raw_label (button);
}

/**
 * sluice_accessible_name_buttons_by_label:
 * @root: a widget
 *
 * Every button under @root (and @root) with a mnemonic in its label is
 * named by the label as shown, without the mnemonic's underscore and not
 * twice, now and whenever its label changes.
 */
void
sluice_accessible_name_buttons_by_label (GtkWidget *root)
{
  g_return_if_fail (GTK_IS_WIDGET (root));

  if (GTK_IS_BUTTON (root) && g_object_get_data (G_OBJECT (root), "sluice-named-by-label") == NULL)
    {
      g_object_set_data (G_OBJECT (root), "sluice-named-by-label", GINT_TO_POINTER (TRUE));
      drop_raw_label (GTK_BUTTON (root));
      g_signal_connect (root, "notify::label", G_CALLBACK (on_label_changed), NULL);
      g_signal_connect (root, "notify::use-underline", G_CALLBACK (on_label_changed), NULL);
    }

  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
    sluice_accessible_name_buttons_by_label (child);
}

/* "Source _fault" → "Source fault"; "__" stands for one "_". */
static char *
strip_mnemonic (const char *label)
{
  GString *text = g_string_new (NULL);

  for (const char *p = label; *p != '\0'; p++)
    {
      if (*p == '_')
        {
          if (p[1] != '_')
            continue;
          p++;
        }
      g_string_append_c (text, *p);
    }
  return g_string_free (text, FALSE);
}

/**
 * sluice_accessible_name_drop_down:
 * @drop_down: a drop-down
 * @name: what it sets, as its row's label reads (a mnemonic's underscore
 *   is left out)
 *
 * Names @drop_down and the button inside it that a screen reader lands on
 * (GTK 4.8 names that button by its type, "GtkToggleButton").
 */
void
sluice_accessible_name_drop_down (GtkDropDown *drop_down,
                                  const char  *name)
{
  g_autofree char *text = NULL;

  g_return_if_fail (GTK_IS_DROP_DOWN (drop_down));
  g_return_if_fail (name != NULL);

  text = strip_mnemonic (name);
  gtk_accessible_update_property (GTK_ACCESSIBLE (drop_down), GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (drop_down)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_TOGGLE_BUTTON (child))
      gtk_accessible_update_property (GTK_ACCESSIBLE (child), GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
}
