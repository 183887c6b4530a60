/* sluice-scenario-update.c: a scenario saved over the text of the file it
 * came from, so that the file keeps its comments, blank lines and order
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-scenario-private.h"

#include <string.h>

/* The text is edited line by line, not through a GKeyFile loaded with
 * G_KEY_FILE_KEEP_COMMENTS: GLib 2.74 adds a new key after the comment and
 * blank lines that end its group (those above the next group's header),
 * and its group comment calls rewrite them. A .pool file that loaded is
 * well formed, so a line is a group header, a key=value, a comment or
 * blank. */

typedef struct {
  char *text;       /* the line, without its end */
  char *group;      /* the group it is in (also for a header), or NULL */
  char *key;        /* a key=value line's key, or NULL */
  gsize value_at;   /* where its value starts in text */
} Line;

/* One difference between the file and the scenario. */
typedef enum {
  EDIT_SET,         /* a key of the file gets another value */
  EDIT_REMOVE,      /* a key the scenario does not write */
  EDIT_ADD,         /* a key the file does not have */
} EditKind;

typedef struct {
  EditKind  kind;
  char     *group;
  char     *key;
  char     *value;   /* for SET and ADD */
  gboolean  applied;
} Edit;

static void
line_clear (Line *line)
{
  g_free (line->text);
  g_free (line->group);
  g_free (line->key);
}

static void
edit_free (Edit *edit)
{
  g_free (edit->group);
  g_free (edit->key);
  g_free (edit->value);
  g_free (edit);
}

static void
parse_line (Line       *line,
            const char *text,
            char      **group)
{
  const char *start = text + strspn (text, " \t");
  const char *eq = strchr (start, '=');

  line->text = g_strdup (text);
  if (*start == '[')
    {
      const char *end = strchr (start, ']');

      g_free (*group);
      *group = g_strndup (start + 1, end != NULL ? (gsize) (end - start - 1) : strlen (start + 1));
      line->group = g_strdup (*group);
    }
  else if (*start != '#' && *start != '\0' && eq != NULL && *group != NULL)
    {
      line->group = g_strdup (*group);
      line->key = g_strstrip (g_strndup (start, eq - start));
      line->value_at = (eq - text) + 1 + strspn (eq + 1, " \t");
    }
}

static GArray *
parse_lines (const char *data)
{
  g_auto(GStrv) texts = g_strsplit (data, "\n", -1);
  GArray *lines = g_array_new (FALSE, TRUE, sizeof (Line));
  g_autofree char *group = NULL;
  guint n = g_strv_length (texts);

  g_array_set_clear_func (lines, (GDestroyNotify) line_clear);
  /* The last line's end is not a line of its own. */
  if (n > 0 && texts[n - 1][0] == '\0')
    n--;
  g_array_set_size (lines, n);
  for (guint i = 0; i < n; i++)
    parse_line (&g_array_index (lines, Line, i), texts[i], &group);

  return lines;
}

static char *
line_value (const Line *line)
{
  return g_strchomp (g_strdup (line->text + line->value_at));
}

static const Line *
find_line (GArray     *lines,
           const char *group,
           const char *key)
{
  for (guint i = 0; i < lines->len; i++)
    {
      const Line *line = &g_array_index (lines, Line, i);

      if (line->key != NULL && g_str_equal (line->key, key) && g_str_equal (line->group, group))
        return line;
    }

  return NULL;
}

static Edit *
edit_new (EditKind    kind,
          const char *group,
          const char *key,
          const char *value)
{
  Edit *edit = g_new0 (Edit, 1);

  edit->kind = kind;
  edit->group = g_strdup (group);
  edit->key = g_strdup (key);
  edit->value = g_strdup (value);
  edit->applied = TRUE;
  return edit;
}

/* Every difference between the file's lines and what the writer writes. */
static GPtrArray *
find_edits (GArray   *lines,
            GKeyFile *fresh)
{
  GPtrArray *edits = g_ptr_array_new_with_free_func ((GDestroyNotify) edit_free);
  g_auto(GStrv) groups = g_key_file_get_groups (fresh, NULL);

  for (guint g = 0; groups[g] != NULL; g++)
    {
      g_auto(GStrv) keys = g_key_file_get_keys (fresh, groups[g], NULL, NULL);

      for (guint k = 0; keys[k] != NULL; k++)
        {
          g_autofree char *value = g_key_file_get_value (fresh, groups[g], keys[k], NULL);
          const Line *line = find_line (lines, groups[g], keys[k]);
          g_autofree char *old = line != NULL ? line_value (line) : NULL;

          if (line == NULL)
            g_ptr_array_add (edits, edit_new (EDIT_ADD, groups[g], keys[k], value));
          else if (!g_str_equal (old, value))
            g_ptr_array_add (edits, edit_new (EDIT_SET, groups[g], keys[k], value));
        }
    }

  for (guint i = 0; i < lines->len; i++)
    {
      const Line *line = &g_array_index (lines, Line, i);

      if (line->key != NULL && !g_key_file_has_key (fresh, line->group, line->key, NULL))
        g_ptr_array_add (edits, edit_new (EDIT_REMOVE, line->group, line->key, NULL));
    }

  return edits;
}

static const Edit *
find_edit (GPtrArray  *edits,
           const char *group,
           const char *key)
{
  for (guint i = 0; i < edits->len; i++)
    {
      const Edit *edit = g_ptr_array_index (edits, i);

      if (edit->applied && g_str_equal (edit->group, group) && g_str_equal (edit->key, key))
        return edit;
    }

  return NULL;
}

static void
append_added (GString    *out,
              GPtrArray  *edits,
              const char *group)
{
  for (guint i = 0; i < edits->len; i++)
    {
      const Edit *edit = g_ptr_array_index (edits, i);

      if (edit->applied && edit->kind == EDIT_ADD && g_str_equal (edit->group, group))
        g_string_append_printf (out, "%s=%s\n", edit->key, edit->value);
    }
}

/* Where the keys added to a group go: after its last key line (or its
 * header), before the comments and blank lines that lead to the next. */
static gboolean
is_insertion_point (GArray *lines,
                    guint   i)
{
  if (g_array_index (lines, Line, i).group == NULL)
    return FALSE;   /* a comment or a blank line */

  for (guint j = i + 1; j < lines->len; j++)
    {
      const Line *next = &g_array_index (lines, Line, j);

      if (next->key != NULL)
        return FALSE;
      if (next->group != NULL)
        return TRUE;   /* the next header */
    }

  return TRUE;
}

static gboolean
file_has_group (GArray     *lines,
                const char *group)
{
  for (guint i = 0; i < lines->len; i++)
    if (g_strcmp0 (g_array_index (lines, Line, i).group, group) == 0)
      return TRUE;

  return FALSE;
}

static void
append_new_groups (GString   *out,
                   GArray    *lines,
                   GPtrArray *edits)
{
  g_autoptr(GPtrArray) done = g_ptr_array_new ();

  for (guint i = 0; i < edits->len; i++)
    {
      const Edit *edit = g_ptr_array_index (edits, i);

      if (!edit->applied || edit->kind != EDIT_ADD || file_has_group (lines, edit->group) ||
          g_ptr_array_find_with_equal_func (done, edit->group, g_str_equal, NULL))
        continue;

      g_ptr_array_add (done, edit->group);
      g_string_append_printf (out, "%s[%s]\n", out->len > 0 ? "\n" : "", edit->group);
      append_added (out, edits, edit->group);
    }
}

static char *
render (GArray    *lines,
        GPtrArray *edits)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < lines->len; i++)
    {
      const Line *line = &g_array_index (lines, Line, i);
      const Edit *edit = line->key != NULL ? find_edit (edits, line->group, line->key) : NULL;

      if (edit == NULL)
        g_string_append_printf (out, "%s\n", line->text);
      else if (edit->kind == EDIT_SET)
        /* The key and its spacing as they were written. */
        g_string_append_printf (out, "%.*s%s\n", (int) line->value_at, line->text, edit->value);

      if (is_insertion_point (lines, i))
        append_added (out, edits, line->group);
    }

  append_new_groups (out, lines, edits);
  return g_string_free (out, FALSE);
}

static gboolean
reads_back_as (SluiceScenario *self,
               const char     *text)
{
  g_autoptr(SluiceScenario) other = sluice_scenario_new_from_data (text, -1, self->name, NULL, NULL);

  return other != NULL && _sluice_scenario_equal (self, other, NULL);
}

/**
 * sluice_scenario_update_data:
 * @self: a #SluiceScenario
 * @data: the text of the `.pool` file @self was loaded from, before it
 *   was edited
 *
 * Changes @data as little as it takes to read back as @self: a key whose
 * value changed gets the new value on its own line, a key @self no longer
 * needs goes, a new key is added at the end of its group (a new group at
 * the end of the file). Comments, blank lines, the order of groups and
 * keys, every `title[LANG]`, and a value written in another form that
 * reads the same (`0.50` for `0.5`, a default written out) are kept.
 * Numbers are written with a ".", in any locale.
 *
 * Returns: (transfer full): the new text; sluice_scenario_to_data() when
 *   no edit of @data reads back as @self
 */
char *
sluice_scenario_update_data (SluiceScenario *self,
                             const char     *data)
{
  g_autoptr(GKeyFile) fresh = NULL;
  g_autoptr(GArray) lines = NULL;
  g_autoptr(GPtrArray) edits = NULL;
  char *text;

  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), NULL);
  g_return_val_if_fail (data != NULL, NULL);

  fresh = sluice_scenario_to_keyfile (self);
  lines = parse_lines (data);
  edits = find_edits (lines, fresh);

  text = render (lines, edits);
  if (!reads_back_as (self, text))
    {
      g_free (text);
      return sluice_scenario_to_data (self, NULL);
    }

  /* Undo each edit the scenario does not need: what is left is the least
   * change that still reads back the same. */
  for (guint i = 0; i < edits->len; i++)
    {
      Edit *edit = g_ptr_array_index (edits, i);
      g_autofree char *without = NULL;

      edit->applied = FALSE;
      without = render (lines, edits);
      if (reads_back_as (self, without))
        {
          g_free (text);
          text = g_steal_pointer (&without);
        }
      else
        edit->applied = TRUE;
    }

  return text;
}

/**
 * sluice_scenario_save_over_data:
 * @self: a #SluiceScenario
 * @data: (nullable): the text of the file @self was loaded from, or %NULL
 * @path: where to write
 * @error: return location for a %SLUICE_SCENARIO_ERROR
 *
 * Writes @self as a `.pool` file: @data edited as
 * sluice_scenario_update_data() does, or without @data as
 * sluice_scenario_save_to_file() does.
 *
 * Returns: (transfer full) (nullable): the text written, or %NULL on error
 */
char *
sluice_scenario_save_over_data (SluiceScenario  *self,
                                const char      *data,
                                const char      *path,
                                GError         **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *text = NULL;

  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  text = data != NULL ? sluice_scenario_update_data (self, data) : sluice_scenario_to_data (self, NULL);
  if (!g_file_set_contents (path, text, -1, &local_error))
    {
      g_set_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_IO,
                   /* Translators: the first %s is the file, the second why it cannot be written. */
                   _("%s: cannot write the scenario: %s"), path, local_error->message);
      return NULL;
    }

  return g_steal_pointer (&text);
}
