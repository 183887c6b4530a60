/* sluice-lesson.c: the [lesson] group of a scenario (docs/teaching.md)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-lesson-private.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "sluice-json-limits-private.h"

/**
 * SluiceLesson:
 *
 * A lesson: a scenario's `[lesson]` group. It asks a question with a few
 * choices before the run; after it, `reveal` says which report values show
 * that the right answer came true in this very run, `moment` where on the
 * run's clock to stop and what to point at, and `explain` why.
 *
 * sluice-scenario-lesson.c reads the group (sluice_scenario_get_lesson());
 * the texts are the locale's translations (`question[de]` …).
 */

G_DEFINE_FINAL_TYPE (SluiceLesson, sluice_lesson, G_TYPE_OBJECT)

static void
condition_free (gpointer data)
{
  SluiceRevealCondition *condition = data;

  g_strfreev (condition->path);
  g_free (condition->text);
  g_clear_pointer (&condition->value, json_node_unref);
  g_free (condition);
}

static void
sluice_lesson_finalize (GObject *object)
{
  SluiceLesson *self = SLUICE_LESSON (object);

  g_clear_pointer (&self->next, g_free);
  g_clear_pointer (&self->question, g_free);
  g_clear_pointer (&self->choices, g_strfreev);
  g_clear_pointer (&self->reveal, g_free);
  g_clear_pointer (&self->conditions, g_ptr_array_unref);
  g_clear_pointer (&self->explain, g_free);
  g_clear_pointer (&self->result, g_free);
  g_clear_pointer (&self->evidence, g_free);

  G_OBJECT_CLASS (sluice_lesson_parent_class)->finalize (object);
}

static void
sluice_lesson_class_init (SluiceLessonClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sluice_lesson_finalize;
}

static void
sluice_lesson_init (SluiceLesson *self)
{
  self->moment = -1;
  self->target_index = -1;
}

SluiceLesson *
_sluice_lesson_new (void)
{
  return g_object_new (SLUICE_TYPE_LESSON, NULL);
}

/* ---- reveal: PATH=JSON; PATH=JSON … ------------------------------------ */

/* The parts of @text between the `;` that are outside JSON strings,
 * arrays and objects: `group_types=["a;b"]; pulled=3` is two. */
static GPtrArray *
split_conditions (const char *text)
{
  GPtrArray *parts = g_ptr_array_new_with_free_func (g_free);
  const char *start = text;
  gboolean in_string = FALSE;
  guint depth = 0;

  for (const char *c = text;; c++)
    {
      if (*c == '\0' || (*c == ';' && !in_string && depth == 0))
        {
          g_ptr_array_add (parts, g_strstrip (g_strndup (start, c - start)));
          if (*c == '\0')
            break;
          start = c + 1;
        }
      else if (in_string && *c == '\\' && c[1] != '\0')
        c++;
      else if (*c == '"')
        in_string = !in_string;
      else if (!in_string && (*c == '[' || *c == '{'))
        depth++;
      else if (!in_string && (*c == ']' || *c == '}') && depth > 0)
        depth--;
    }

  return parts;
}

static gboolean
is_path_segment (const char *segment)
{
  if (*segment == '\0')
    return FALSE;

  for (const char *c = segment; *c != '\0'; c++)
    if (!g_ascii_isalnum (*c) && *c != '_' && *c != '-')
      return FALSE;

  return TRUE;
}

static SluiceRevealCondition *
parse_condition (const char  *part,
                 char       **problem)
{
  const char *equals = strchr (part, '=');
  g_autofree char *path = NULL;
  g_autoptr(GError) json_error = NULL;
  g_autoptr(JsonNode) value = NULL;
  g_auto(GStrv) segments = NULL;
  SluiceRevealCondition *condition;

  if (equals == NULL)
    {
      /* Translators: %s is one condition of a lesson's reveal key. Keep
       * “PATH=JSON”: it is the form users type. */
      *problem = g_strdup_printf (_("“%s” has no “=”; expected PATH=JSON"), part);
      return NULL;
    }

  path = g_strstrip (g_strndup (part, equals - part));
  segments = g_strsplit (path, ".", -1);
  for (guint i = 0; segments[i] != NULL; i++)
    if (!is_path_segment (segments[i]))
      {
        /* Translators: %s is the path of a lesson's reveal condition. */
        *problem = g_strdup_printf (_("“%s” is not a report key; expected keys of the JSON report "
                                      "joined by “.”, such as metrics.retry or results.0"), path);
        return NULL;
      }

  /* Too deep a value would overflow json-glib's recursion. */
  if (!_sluice_json_check_limits (equals + 1, -1, SLUICE_LESSON_MAX_REVEAL_VALUE, &json_error))
    {
      /* Translators: the first %s is a path of a lesson's reveal
       * condition, the second the limit its value goes beyond. */
      *problem = g_strdup_printf (_("the value of “%s” is refused: %s"), path, json_error->message);
      return NULL;
    }
  value = json_from_string (equals + 1, &json_error);
  if (value == NULL)
    {
      /* Translators: the first %s is a path of a lesson's reveal
       * condition, the second why its value is not JSON. */
      *problem = g_strdup_printf (_("the value of “%s” is not JSON (%s); expected a JSON value such as "
                                    "3, true, \"ok\" or [4,1,0]"),
                                  path, json_error != NULL ? json_error->message : _("empty"));
      return NULL;
    }

  condition = g_new0 (SluiceRevealCondition, 1);
  condition->path = g_steal_pointer (&segments);
  condition->text = g_steal_pointer (&path);
  condition->value = g_steal_pointer (&value);
  return condition;
}

/* The conditions of @text, or NULL with *problem saying what is wrong. */
GPtrArray *
_sluice_lesson_parse_reveal (const char  *text,
                             char       **problem)
{
  g_autoptr(GPtrArray) parts = split_conditions (text);
  g_autoptr(GPtrArray) conditions = g_ptr_array_new_with_free_func (condition_free);

  for (guint i = 0; i < parts->len; i++)
    {
      const char *part = g_ptr_array_index (parts, i);
      SluiceRevealCondition *condition;

      if (*part == '\0')
        {
          *problem = g_strdup (_("a condition is empty; expected PATH=JSON conditions separated by “;”"));
          return NULL;
        }

      condition = parse_condition (part, problem);
      if (condition == NULL)
        return NULL;
      g_ptr_array_add (conditions, condition);
    }

  return g_steal_pointer (&conditions);
}

/* The node at @path in @node, or NULL: a reveal condition's value in a
 * report (here and in sluice-lesson-evidence.c). */
JsonNode *
_sluice_lesson_lookup_path (JsonNode           *node,
                            const char * const *path)
{
  for (guint i = 0; node != NULL && path[i] != NULL; i++)
    {
      if (JSON_NODE_HOLDS_OBJECT (node))
        node = json_object_get_member (json_node_get_object (node), path[i]);
      else if (JSON_NODE_HOLDS_ARRAY (node))
        {
          JsonArray *array = json_node_get_array (node);
          guint64 index;

          if (!g_ascii_string_to_unsigned (path[i], 10, 0, G_MAXUINT, &index, NULL) ||
              index >= json_array_get_length (array))
            return NULL;
          node = json_array_get_element (array, (guint) index);
        }
      else
        return NULL;
    }

  return node;
}

static gboolean
is_number (JsonNode *node)
{
  GType type = JSON_NODE_HOLDS_VALUE (node) ? json_node_get_value_type (node) : G_TYPE_INVALID;

  return type == G_TYPE_INT64 || type == G_TYPE_DOUBLE;
}

static gboolean values_equal (JsonNode *a, JsonNode *b);

static gboolean
arrays_equal (JsonArray *a,
              JsonArray *b)
{
  guint n = json_array_get_length (a);

  if (n != json_array_get_length (b))
    return FALSE;

  for (guint i = 0; i < n; i++)
    if (!values_equal (json_array_get_element (a, i), json_array_get_element (b, i)))
      return FALSE;

  return TRUE;
}

static gboolean
objects_equal (JsonObject *a,
               JsonObject *b)
{
  g_autoptr(GList) members = json_object_get_members (a);

  if (json_object_get_size (a) != json_object_get_size (b))
    return FALSE;

  for (GList *l = members; l != NULL; l = l->next)
    if (!json_object_has_member (b, l->data) ||
        !values_equal (json_object_get_member (a, l->data), json_object_get_member (b, l->data)))
      return FALSE;

  return TRUE;
}

/* JSON equality, where 3 and 3.0 are the same number. */
static gboolean
values_equal (JsonNode *a,
              JsonNode *b)
{
  if (is_number (a) && is_number (b))
    return json_node_get_double (a) == json_node_get_double (b);

  if (JSON_NODE_TYPE (a) != JSON_NODE_TYPE (b))
    return FALSE;

  switch (JSON_NODE_TYPE (a))
    {
    case JSON_NODE_OBJECT:
      return objects_equal (json_node_get_object (a), json_node_get_object (b));
    case JSON_NODE_ARRAY:
      return arrays_equal (json_node_get_array (a), json_node_get_array (b));
    case JSON_NODE_NULL:
      return TRUE;
    case JSON_NODE_VALUE:
    default:
      return json_node_equal (a, b);
    }
}

/**
 * sluice_lesson_check_reveal:
 * @self: a #SluiceLesson
 * @report: the JSON report of a run of its scenario
 * @shown: (out) (optional) (transfer full): what the run showed, in the
 *   form of `reveal` (`result_order=[0,1,4]`), a missing key as
 *   `PATH=(absent)`
 *
 * Checks `reveal` against @report: whether this very run showed the
 * answer come true.
 *
 * Returns: %TRUE if every condition holds
 */
gboolean
sluice_lesson_check_reveal (SluiceLesson  *self,
                            JsonNode      *report,
                            char         **shown)
{
  g_autoptr(GString) text = g_string_new (NULL);
  gboolean held = TRUE;

  g_return_val_if_fail (SLUICE_IS_LESSON (self), FALSE);
  g_return_val_if_fail (report != NULL, FALSE);

  for (guint i = 0; i < self->conditions->len; i++)
    {
      SluiceRevealCondition *condition = g_ptr_array_index (self->conditions, i);
      JsonNode *actual = _sluice_lesson_lookup_path (report, (const char * const *) condition->path);
      g_autofree char *printed = actual != NULL ? json_to_string (actual, FALSE) : NULL;

      held = held && actual != NULL && values_equal (actual, condition->value);
      g_string_append_printf (text, "%s%s=%s", i > 0 ? "; " : "", condition->text,
                              printed != NULL ? printed : "(absent)");
    }

  if (shown != NULL)
    *shown = g_string_free (g_steal_pointer (&text), FALSE);

  return held;
}

/* ---- getters ----------------------------------------------------------- */

/**
 * sluice_lesson_get_order:
 * @self: a #SluiceLesson
 *
 * Returns: its place in the gallery, from 1
 */
guint
sluice_lesson_get_order (SluiceLesson *self)
{
  g_return_val_if_fail (SLUICE_IS_LESSON (self), 0);
  return self->order;
}

/**
 * sluice_lesson_get_next:
 * @self: a #SluiceLesson
 *
 * Returns: (nullable): the name of the lesson that follows (its file name
 *   without `.pool`), or %NULL for the last one
 */
const char *
sluice_lesson_get_next (SluiceLesson *self)
{
  g_return_val_if_fail (SLUICE_IS_LESSON (self), NULL);
  return self->next;
}

/**
 * sluice_lesson_get_question:
 * @self: a #SluiceLesson
 *
 * Returns: the question, in the locale's language when translated
 */
const char *
sluice_lesson_get_question (SluiceLesson *self)
{
  g_return_val_if_fail (SLUICE_IS_LESSON (self), NULL);
  return self->question;
}

/**
 * sluice_lesson_get_choices:
 * @self: a #SluiceLesson
 *
 * Returns: (transfer none) (array zero-terminated=1): the choices, in order
 */
const char * const *
sluice_lesson_get_choices (SluiceLesson *self)
{
  g_return_val_if_fail (SLUICE_IS_LESSON (self), NULL);
  return (const char * const *) self->choices;
}

/**
 * sluice_lesson_get_n_choices:
 * @self: a #SluiceLesson
 *
 * Returns: how many choices there are
 */
guint
sluice_lesson_get_n_choices (SluiceLesson *self)
{
  g_return_val_if_fail (SLUICE_IS_LESSON (self), 0);
  return g_strv_length (self->choices);
}

/**
 * sluice_lesson_get_answer:
 * @self: a #SluiceLesson
 *
 * Returns: the right choice, counted from 1 as `answer` is written
 */
guint
sluice_lesson_get_answer (SluiceLesson *self)
{
  g_return_val_if_fail (SLUICE_IS_LESSON (self), 0);
  return self->answer;
}

/**
 * sluice_lesson_get_reveal:
 * @self: a #SluiceLesson
 *
 * Returns: `reveal` as written: the report values that show the answer
 */
const char *
sluice_lesson_get_reveal (SluiceLesson *self)
{
  g_return_val_if_fail (SLUICE_IS_LESSON (self), NULL);
  return self->reveal;
}

/**
 * sluice_lesson_get_moment:
 * @self: a #SluiceLesson
 *
 * Returns: the time on the run's clock, in µs, to stop at after the run,
 *   or -1 for the run's end
 */
gint64
sluice_lesson_get_moment (SluiceLesson *self)
{
  g_return_val_if_fail (SLUICE_IS_LESSON (self), -1);
  return self->moment;
}

/**
 * sluice_lesson_get_target:
 * @self: a #SluiceLesson
 *
 * Returns: what the moment points at
 */
SluiceLessonTarget
sluice_lesson_get_target (SluiceLesson *self)
{
  g_return_val_if_fail (SLUICE_IS_LESSON (self), SLUICE_LESSON_TARGET_NONE);
  return self->target;
}

/**
 * sluice_lesson_get_target_index:
 * @self: a #SluiceLesson
 *
 * Returns: the item or worker the moment points at, or -1
 */
gint64
sluice_lesson_get_target_index (SluiceLesson *self)
{
  g_return_val_if_fail (SLUICE_IS_LESSON (self), -1);
  return self->target_index;
}

/**
 * sluice_lesson_get_result:
 * @self: a #SluiceLesson
 *
 * Returns: (nullable): what the lesson finds (`result`), a title for
 *   after the reveal: before it the scenario's title names only the topic
 */
const char *
sluice_lesson_get_result (SluiceLesson *self)
{
  g_return_val_if_fail (SLUICE_IS_LESSON (self), NULL);
  return self->result;
}

/**
 * sluice_lesson_mutes_lint:
 * @self: a #SluiceLesson
 * @kind: a #SluiceLintKind
 *
 * Returns: whether the lesson teaches that lint (`mute-lints`): then the
 *   app does not flag it while the lesson is shown
 */
gboolean
sluice_lesson_mutes_lint (SluiceLesson *self,
                          guint         kind)
{
  g_return_val_if_fail (SLUICE_IS_LESSON (self), FALSE);
  return kind < 32 && (self->muted & (1u << kind)) != 0;
}

/**
 * sluice_lesson_get_explain:
 * @self: a #SluiceLesson
 *
 * Returns: the explanation shown with the answer
 */
const char *
sluice_lesson_get_explain (SluiceLesson *self)
{
  g_return_val_if_fail (SLUICE_IS_LESSON (self), NULL);
  return self->explain;
}
