/* sluice-lesson-changes.c: how a run's settings differ from its lesson's
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>
#include <string.h>

#include "sluice-config-fields-private.h"
#include "sluice-lesson-changes.h"

/*
 * A lesson's answer is about its own settings. When the class changed one
 * and ran again (docs/teaching.md: "change one field and run again"), the
 * verdict must judge the run that was made: it names what changed, as the
 * configuration's labels say it, such as “Queue size: 3 → 1”.
 */

/* The groups a person edits; [scenario] and [lesson] are texts. */
static const char * const setting_groups[] = { "pool", "retry", "source", "handler", "run", "submit", NULL };

/* The configuration's label of @group's @key, without its mnemonic, or
 * the key as the file writes it. */
static char *
label_of (const char *group,
          const char *key)
{
  gint field = _sluice_config_find_field (group, key);
  g_autoptr(GString) label = NULL;

  if (field < 0 && g_str_equal (group, "handler") && g_str_has_prefix (key, "item."))
    field = _sluice_config_find_field (group, SLUICE_CONFIG_ITEMS_KEY);
  if (field < 0)
    return g_strdup_printf ("%s.%s", group, key);

  label = g_string_new (_(_sluice_config_fields[field].label));
  g_string_replace (label, "_", "", 0);
  if (g_str_has_prefix (key, "item."))
    g_string_append_printf (label, " (%s)", key);
  return g_string_free (g_steal_pointer (&label), FALSE);
}

/* A value as the file has it, numbers in the language's format, or “—”
 * when the key is not set. */
static char *
value_of (GKeyFile   *keyfile,
          const char *group,
          const char *key)
{
  g_autofree char *value = g_key_file_get_value (keyfile, group, key, NULL);
  gint field = _sluice_config_find_field (group, key);
  GString *text;

  /* A choice the configuration leaves out at its default (its first), as
   * the window writes `jitter`: a lesson's file may spell it out. */
  if (value == NULL && field >= 0 && _sluice_config_fields[field].omit_default &&
      _sluice_config_fields[field].choices != NULL)
    value = g_strdup (_sluice_config_fields[field].choices[0]);
  if (value == NULL)
    return g_strdup ("—");

  text = g_string_new (NULL);
  for (const char *c = value; *c != '\0'; c++)
    if (*c == '.' && c > value && g_ascii_isdigit (c[-1]) && g_ascii_isdigit (c[1]))
      /* The same separator as the reveal's numbers. */
      g_string_append (text, C_("decimal separator", "."));
    else
      g_string_append_c (text, *c);
  return g_string_free (text, FALSE);
}

static void
add_changes_of_group (GString    *out,
                      GKeyFile   *before,
                      GKeyFile   *after,
                      const char *group)
{
  g_auto(GStrv) keys_before = g_key_file_get_keys (before, group, NULL, NULL);
  g_auto(GStrv) keys_after = g_key_file_get_keys (after, group, NULL, NULL);
  g_autoptr(GPtrArray) keys = g_ptr_array_new ();

  for (guint i = 0; keys_before != NULL && keys_before[i] != NULL; i++)
    g_ptr_array_add (keys, keys_before[i]);
  for (guint i = 0; keys_after != NULL && keys_after[i] != NULL; i++)
    if (keys_before == NULL || !g_strv_contains ((const char * const *) keys_before, keys_after[i]))
      g_ptr_array_add (keys, keys_after[i]);

  for (guint i = 0; i < keys->len; i++)
    {
      const char *key = g_ptr_array_index (keys, i);
      g_autofree char *was = value_of (before, group, key);
      g_autofree char *is = value_of (after, group, key);
      g_autofree char *label = NULL;

      if (g_str_equal (was, is))
        continue;
      label = label_of (group, key);
      if (out->len > 0)
        /* Translators: between two changed settings. */
        g_string_append (out, C_("changes", "; "));
      /* Translators: a changed setting: its label, the lesson's value and
       * the value of the run, such as “Queue size: 3 → 1”. */
      g_string_append_printf (out, C_("changes", "%s: %s → %s"), label, was, is);
    }
}

/**
 * sluice_lesson_changes_describe:
 * @lesson: the lesson's scenario, as its file has it
 * @ran: the scenario of the run that was made
 *
 * Returns: (transfer full) (nullable): the settings that differ, as
 *   “LABEL: BEFORE → AFTER” separated by “; ”, or %NULL when the run had
 *   the lesson's own settings
 */
char *
sluice_lesson_changes_describe (SluiceScenario *lesson,
                                SluiceScenario *ran)
{
  g_autoptr(GKeyFile) before = NULL;
  g_autoptr(GKeyFile) after = NULL;
  g_autoptr(GString) out = g_string_new (NULL);

  g_return_val_if_fail (SLUICE_IS_SCENARIO (lesson), NULL);
  g_return_val_if_fail (SLUICE_IS_SCENARIO (ran), NULL);

  before = sluice_scenario_to_keyfile (lesson);
  after = sluice_scenario_to_keyfile (ran);
  /* A simulated run does the same on any clock (the window plays it on a
   * paced one, a screenshot on the virtual one): the clock is not a
   * setting that changes what the lesson shows. */
  if (!sluice_scenario_needs_real_time (lesson) && !sluice_scenario_needs_real_time (ran))
    {
      g_key_file_remove_key (before, "run", "clock", NULL);
      g_key_file_remove_key (after, "run", "clock", NULL);
    }
  for (guint i = 0; setting_groups[i] != NULL; i++)
    add_changes_of_group (out, before, after, setting_groups[i]);

  return out->len > 0 ? g_string_free (g_steal_pointer (&out), FALSE) : NULL;
}
