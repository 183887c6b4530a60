/* sluice-lesson-gallery.h: the Lessons page: a card per lesson, in order
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SLUICE_TYPE_LESSON_GALLERY (sluice_lesson_gallery_get_type ())
G_DECLARE_FINAL_TYPE (SluiceLessonGallery, sluice_lesson_gallery, SLUICE, LESSON_GALLERY, GtkWidget)

GtkWidget *sluice_lesson_gallery_new        (void);
void       sluice_lesson_gallery_reload     (SluiceLessonGallery *self);
void       sluice_lesson_gallery_set_done   (SluiceLessonGallery *self,
                                             const char * const  *names);
const char * const *sluice_lesson_gallery_get_done (SluiceLessonGallery *self);
guint      sluice_lesson_gallery_get_n_cards (SluiceLessonGallery *self);
GtkWidget *sluice_lesson_gallery_get_card   (SluiceLessonGallery *self,
                                             const char          *name);
const char *sluice_lesson_gallery_get_first (SluiceLessonGallery *self);

G_END_DECLS
