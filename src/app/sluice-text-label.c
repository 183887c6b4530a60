/* sluice-text-label.c: a paragraph of text in a box
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include "sluice-text-label.h"

/**
 * sluice_text_label_append:
 * @box: where it goes, last
 * @text: (nullable): its text
 * @style: (nullable): a CSS class for it
 *
 * A paragraph as the lesson panel and the lesson plan show them: left
 * aligned, wrapped at words (or within a long word) rather than widening
 * a narrow sidebar, and selectable, so that a learner can copy it.
 *
 * Returns: (transfer none): the label
 */
GtkLabel *
sluice_text_label_append (GtkBox     *box,
                          const char *text,
                          const char *style)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  if (style != NULL)
    gtk_widget_add_css_class (label, style);
  gtk_box_append (box, label);
  return GTK_LABEL (label);
}
