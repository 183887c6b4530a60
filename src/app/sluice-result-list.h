/* sluice-result-list.h: a run's results as lines of text, made when shown
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sluice-run-model.h"
#include <sluice.h>

G_BEGIN_DECLS

#define SLUICE_TYPE_RESULT_LIST (sluice_result_list_get_type ())
G_DECLARE_FINAL_TYPE (SluiceResultList, sluice_result_list, SLUICE, RESULT_LIST, GObject)

SluiceResultList *sluice_result_list_new       (void);
void              sluice_result_list_set_model (SluiceResultList *self,
                                                SluiceRunModel   *model);
void              sluice_result_list_sync      (SluiceResultList *self);

G_END_DECLS
