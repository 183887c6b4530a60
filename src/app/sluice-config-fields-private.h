/* sluice-config-fields-private.h: the config panel's fields, as data
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The keys of the fields that do not map one to one onto a key of the file:
 * the per-item and per-job lines (item.N and give-up.N keys), and the source fault with its count
 * (one key named after the fault, such as raise-after=3). */
#define SLUICE_CONFIG_ITEMS_KEY       "item.*"
#define SLUICE_CONFIG_GIVE_UPS_KEY    "give-up.*"
#define SLUICE_CONFIG_FAULT_KEY       "fault"
#define SLUICE_CONFIG_FAULT_AFTER_KEY "fault-after"

typedef enum {
  SLUICE_FIELD_ENTRY,
  SLUICE_FIELD_CHOICE,
  SLUICE_FIELD_SWITCH,
  SLUICE_FIELD_LINES,
} SluiceConfigFieldKind;

typedef enum {
  SLUICE_SECTION_POOL,
  SLUICE_SECTION_RETRY,
  SLUICE_SECTION_SOURCE,
  SLUICE_SECTION_HANDLER,
  SLUICE_SECTION_RUN,
  SLUICE_SECTION_SUBMIT,
  SLUICE_N_SECTIONS
} SluiceConfigSection;

typedef enum {
  SLUICE_CONFIG_MODE_ANY,
  SLUICE_CONFIG_MODE_STREAM,
  SLUICE_CONFIG_MODE_SUBMIT,
} SluiceConfigMode;

typedef struct {
  SluiceConfigSection   section;
  const char           *group;
  const char           *key;
  SluiceConfigFieldKind kind;
  const char           *label;           /* untranslated (N_) */
  const char           *tooltip;         /* untranslated (N_) */
  const char * const   *choices;
  const char * const   *choice_labels;   /* what the drop-down shows, by choice */
  const char           *choice_context;  /* the labels' translation context */
  /* A choice left out of the file while it is at its default, the first
   * choice: [retry] keys such as jitter are errors without a backoff. */
  gboolean              omit_default;
  /* The fields of one mode only ([run] mode); the others apply in both. */
  SluiceConfigMode      mode;
} SluiceConfigFieldSpec;

#define SLUICE_CONFIG_N_FIELDS 36

/* The fields, in the order the panel shows them. */
extern const SluiceConfigFieldSpec _sluice_config_fields[SLUICE_CONFIG_N_FIELDS];

gint        _sluice_config_find_field          (const char                  *group,
                                                const char                  *key);
gint        _sluice_config_field_find_choice   (const SluiceConfigFieldSpec *spec,
                                                const char                  *text);
const char *_sluice_config_field_choice_label  (const SluiceConfigFieldSpec *spec,
                                                guint                        choice);
gboolean    _sluice_config_field_applies       (const SluiceConfigFieldSpec *spec,
                                                gboolean                     submit);
gint        _sluice_config_field_of_error      (const char                  *message,
                                                const char                 **detail);
void        _sluice_config_copy_group          (GKeyFile                    *from,
                                                GKeyFile                    *to,
                                                const char                  *group);
GKeyFile   *_sluice_config_fields_to_keyfile   (char * const                *texts,
                                                GKeyFile                    *scenario_texts,
                                                gint                        *bad_field,
                                                char                       **error);
void        _sluice_config_fields_from_keyfile (GKeyFile                    *keyfile,
                                                char                       **texts);
char       *_sluice_config_delocalize_numbers  (const char                  *text,
                                                const char                  *decimal_point);
gboolean    _sluice_config_field_takes_local_numbers (const SluiceConfigFieldSpec *spec);

G_END_DECLS
