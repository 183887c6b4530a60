/* sluice-behaviour.c: what the fault-injecting handler does for one item
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-behaviour.h"
#include "sluice-scenario.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

G_DEFINE_BOXED_TYPE (SluiceBehaviour, sluice_behaviour,
                     sluice_behaviour_copy, sluice_behaviour_free)

typedef struct {
  const char          *name;
  SluiceBehaviourKind  kind;
} KindName;

static const KindName kind_names[] = {
  { "ok", SLUICE_BEHAVIOUR_OK },
  { "fail", SLUICE_BEHAVIOUR_FAIL },
  { "fail-always", SLUICE_BEHAVIOUR_FAIL_ALWAYS },
  { "hang", SLUICE_BEHAVIOUR_HANG },
  { "late", SLUICE_BEHAVIOUR_LATE },
  { "cancel-self", SLUICE_BEHAVIOUR_CANCEL_SELF },
  { "stubborn", SLUICE_BEHAVIOUR_STUBBORN },
  { "block", SLUICE_BEHAVIOUR_BLOCK },
  { "thread", SLUICE_BEHAVIOUR_THREAD },
};

/* Longest delay a behaviour accepts: about 31 years, far below what would
 * overflow microseconds in a gint64. */
#define MAX_DELAY 1e9

/**
 * sluice_behaviour_kind_to_string:
 * @kind: a #SluiceBehaviourKind
 *
 * Returns: the keyword of @kind in scenario files, such as `fail-always`
 */
const char *
sluice_behaviour_kind_to_string (SluiceBehaviourKind kind)
{
  for (guint i = 0; i < G_N_ELEMENTS (kind_names); i++)
    if (kind_names[i].kind == kind)
      return kind_names[i].name;

  g_return_val_if_reached (NULL);
}

/**
 * sluice_behaviour_new:
 * @kind: what the handler does
 * @delay: D, in seconds
 *
 * Returns: (transfer full): a new behaviour without error type
 */
SluiceBehaviour *
sluice_behaviour_new (SluiceBehaviourKind kind,
                      double              delay)
{
  SluiceBehaviour *self = g_new0 (SluiceBehaviour, 1);

  self->kind = kind;
  self->delay = delay;

  return self;
}

/**
 * sluice_behaviour_copy:
 * @self: a behaviour
 *
 * Returns: (transfer full): a deep copy of @self
 */
SluiceBehaviour *
sluice_behaviour_copy (const SluiceBehaviour *self)
{
  SluiceBehaviour *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = g_memdup2 (self, sizeof *self);
  copy->error_type = g_strdup (self->error_type);

  return copy;
}

/**
 * sluice_behaviour_free:
 * @self: (nullable): a behaviour
 *
 * Frees @self.
 */
void
sluice_behaviour_free (SluiceBehaviour *self)
{
  if (self == NULL)
    return;

  g_free (self->error_type);
  g_free (self);
}

/**
 * sluice_is_error_type_name:
 * @text: a candidate type name
 *
 * Whether @text is a valid error type name: an identifier made of ASCII
 * letters, digits and underscores that does not start with a digit, such
 * as `ValueError`.
 *
 * Returns: %TRUE if @text is a valid type name
 */
gboolean
sluice_is_error_type_name (const char *text)
{
  if (text == NULL || *text == '\0')
    return FALSE;

  if (!g_ascii_isalpha (*text) && *text != '_')
    return FALSE;

  for (const char *p = text + 1; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '_')
      return FALSE;

  return TRUE;
}

/**
 * sluice_format_double:
 * @value: a finite number
 *
 * Formats @value in the shortest decimal form that reads back as the same
 * number, in the C locale (`0.1`, not `0.10000000000000001`).
 *
 * Returns: (transfer full): the text
 */
char *
sluice_format_double (double value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  /* Plain decimals first: people type `60`, not `6e+01`, in a .pool file. */
  if (fabs (value) < 1e15)
    for (int decimals = 0; decimals <= 17; decimals++)
      {
        char format[8];

        g_snprintf (format, sizeof format, "%%.%df", decimals);
        g_ascii_formatd (buf, sizeof buf, format, value);
        if (g_ascii_strtod (buf, NULL) == value)
          return g_strdup (buf);
      }

  for (int precision = 1; precision <= 17; precision++)
    {
      char format[8];

      g_snprintf (format, sizeof format, "%%.%dg", precision);
      g_ascii_formatd (buf, sizeof buf, format, value);
      if (g_ascii_strtod (buf, NULL) == value)
        break;
    }

  return g_strdup (buf);
}

/* A plain decimal number, such as 2, -0.5, .5 or 1e-3: no hexadecimal
 * (0x1p-3), inf or nan, which g_ascii_strtod() also reads. @length is the
 * length of @text, or -1 when it ends with a nul. */
gboolean
_sluice_is_plain_decimal (const char *text,
                          gssize      length)
{
  const char *c = text;
  const char *end = length < 0 ? text + strlen (text) : text + length;
  gboolean digits = FALSE;

  if (c < end && (*c == '+' || *c == '-'))
    c++;
  for (; c < end && g_ascii_isdigit (*c); c++)
    digits = TRUE;
  if (c < end && *c == '.')
    for (c++; c < end && g_ascii_isdigit (*c); c++)
      digits = TRUE;
  if (!digits)
    return FALSE;

  if (c < end && (*c == 'e' || *c == 'E'))
    {
      c++;
      if (c < end && (*c == '+' || *c == '-'))
        c++;
      if (c == end || !g_ascii_isdigit (*c))
        return FALSE;
      while (c < end && g_ascii_isdigit (*c))
        c++;
    }

  return c == end;
}

static gboolean
parse_delay (const char  *token,
             double      *delay,
             GError     **error)
{
  char *end = NULL;
  double value;

  value = g_ascii_strtod (token, &end);
  if (!_sluice_is_plain_decimal (token, -1) ||
      end == token || *end != '\0' || !isfinite (value) || value < 0 || value > MAX_DELAY)
    {
      g_set_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_INVALID_VALUE,
                   /* Translators: %s is the delay as typed, %g the longest delay allowed. */
                   _("“%s” is not a delay; expected seconds, a number from 0 to %g"),
                   token, MAX_DELAY);
      return FALSE;
    }

  *delay = value;
  return TRUE;
}

static gboolean
parse_count (const char  *token,
             guint       *count,
             GError     **error)
{
  guint64 value;

  if (!g_ascii_string_to_unsigned (token, 10, 0, G_MAXINT, &value, NULL))
    {
      g_set_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_INVALID_VALUE,
                   /* Translators: %s is the K of “fail K TYPE” as typed. */
                   _("“%s” is not a count of failures; expected an integer ≥ 0"), token);
      return FALSE;
    }

  *count = (guint) value;
  return TRUE;
}

static gboolean
parse_error_type (const char  *token,
                  char       **error_type,
                  GError     **error)
{
  if (!sluice_is_error_type_name (token))
    {
      g_set_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_INVALID_VALUE,
                   /* Translators: %s is the TYPE of a behaviour as typed. Keep the
                    * example ValueError as it is. */
                   _("“%s” is not an error type; expected a name such as ValueError "
                     "(letters, digits and _, not starting with a digit)"), token);
      return FALSE;
    }

  *error_type = g_strdup (token);
  return TRUE;
}

static gboolean
lookup_kind (const char          *word,
             SluiceBehaviourKind *kind)
{
  for (guint i = 0; i < G_N_ELEMENTS (kind_names); i++)
    if (g_str_equal (kind_names[i].name, word))
      {
        *kind = kind_names[i].kind;
        return TRUE;
      }

  return FALSE;
}

/* How many arguments each kind takes: required, then optional D. */
static void
kind_arity (SluiceBehaviourKind  kind,
            guint               *required,
            guint               *optional)
{
  *optional = 0;

  switch (kind)
    {
    case SLUICE_BEHAVIOUR_OK:
    case SLUICE_BEHAVIOUR_CANCEL_SELF:
      *required = 0;
      *optional = 1;
      break;
    case SLUICE_BEHAVIOUR_FAIL:
      *required = 2;
      *optional = 1;
      break;
    case SLUICE_BEHAVIOUR_FAIL_ALWAYS:
      *required = 1;
      *optional = 1;
      break;
    case SLUICE_BEHAVIOUR_HANG:
      *required = 0;
      break;
    case SLUICE_BEHAVIOUR_LATE:
    case SLUICE_BEHAVIOUR_STUBBORN:
    case SLUICE_BEHAVIOUR_BLOCK:
    case SLUICE_BEHAVIOUR_THREAD:
    default:
      *required = 1;
      break;
    }
}

static gboolean
parse_arguments (SluiceBehaviour  *self,
                 char            **args,
                 GError          **error)
{
  guint i = 0;

  if (self->kind == SLUICE_BEHAVIOUR_FAIL &&
      !parse_count (args[i++], &self->failures, error))
    return FALSE;

  if ((self->kind == SLUICE_BEHAVIOUR_FAIL || self->kind == SLUICE_BEHAVIOUR_FAIL_ALWAYS) &&
      !parse_error_type (args[i++], &self->error_type, error))
    return FALSE;

  if (args[i] != NULL && !parse_delay (args[i], &self->delay, error))
    return FALSE;

  return TRUE;
}

/* Splits @text at blanks, without empty words. */
static GStrv
split_words (const char *text)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) words = g_strsplit_set (text, " \t", -1);

  for (guint i = 0; words[i] != NULL; i++)
    if (*words[i] != '\0')
      g_strv_builder_add (builder, words[i]);

  return g_strv_builder_end (builder);
}

/**
 * sluice_behaviour_is_valid:
 * @text: a behaviour's text
 *
 * Returns: whether sluice_behaviour_parse() takes @text (a stored job's
 *   payload `behaviour`, checked before it is exported as a scenario)
 */
gboolean
sluice_behaviour_is_valid (const char *text)
{
  g_autoptr(SluiceBehaviour) behaviour = text != NULL ? sluice_behaviour_parse (text, NULL) : NULL;

  return behaviour != NULL;
}

/**
 * sluice_behaviour_parse:
 * @text: a behaviour, such as `fail 1 ValueError 0.2`
 * @error: return location for a %SLUICE_SCENARIO_ERROR
 *
 * Parses one behaviour of a scenario's handler. The message of @error says
 * what is wrong and the expected form, without the file or key.
 *
 * Returns: (transfer full) (nullable): the behaviour, or %NULL on error
 */
SluiceBehaviour *
sluice_behaviour_parse (const char  *text,
                        GError     **error)
{
  g_autoptr(SluiceBehaviour) self = NULL;
  g_auto(GStrv) words = NULL;
  SluiceBehaviourKind kind;
  guint required, optional, n_args;

  g_return_val_if_fail (text != NULL, NULL);

  words = split_words (text);

  if (words[0] == NULL)
    {
      g_set_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_INVALID_VALUE,
                   /* Translators: %s is the syntax of behaviours, such as
                    * “ok [D] | fail K TYPE [D] | …”, which stays in English. */
                   _("the behaviour is empty; expected %s"), SLUICE_BEHAVIOUR_EXPECTED);
      return NULL;
    }

  if (!lookup_kind (words[0], &kind))
    {
      g_set_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_INVALID_VALUE,
                   /* Translators: the first %s is the word as typed, the second the syntax
                    * of behaviours, such as “ok [D] | fail K TYPE [D] | …”, which stays
                    * in English. */
                   _("unknown behaviour “%s”; expected %s"), words[0], SLUICE_BEHAVIOUR_EXPECTED);
      return NULL;
    }

  kind_arity (kind, &required, &optional);
  n_args = g_strv_length (words) - 1;
  if (n_args < required || n_args > required + optional)
    {
      g_set_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_INVALID_VALUE,
                   /* Translators: “BEHAVIOUR” takes MIN to MAX arguments, not GIVEN;
                    * the last %s is the syntax of behaviours, which stays in English. */
                   _("“%s” takes %u to %u arguments, not %u; expected %s"),
                   words[0], required, required + optional, n_args, SLUICE_BEHAVIOUR_EXPECTED);
      return NULL;
    }

  self = sluice_behaviour_new (kind, 0);
  if (!parse_arguments (self, words + 1, error))
    return NULL;

  return g_steal_pointer (&self);
}

/**
 * sluice_behaviour_to_string:
 * @self: a behaviour
 *
 * Formats @self the way a scenario file writes it.
 *
 * Returns: (transfer full): the text, such as `fail 1 ValueError 0.2`
 */
char *
sluice_behaviour_to_string (const SluiceBehaviour *self)
{
  GString *text;
  guint required, optional;

  g_return_val_if_fail (self != NULL, NULL);

  text = g_string_new (sluice_behaviour_kind_to_string (self->kind));

  if (self->kind == SLUICE_BEHAVIOUR_FAIL)
    g_string_append_printf (text, " %u", self->failures);
  if (self->error_type != NULL)
    g_string_append_printf (text, " %s", self->error_type);

  kind_arity (self->kind, &required, &optional);
  if (self->kind != SLUICE_BEHAVIOUR_HANG && (self->delay != 0 || optional == 0))
    {
      g_autofree char *delay = sluice_format_double (self->delay);
      g_string_append_printf (text, " %s", delay);
    }

  return g_string_free (text, FALSE);
}

/**
 * sluice_behaviour_needs_real_time:
 * @self: a behaviour
 *
 * Whether @self spends real time (`block`, `thread`), which a virtual clock
 * cannot simulate.
 *
 * Returns: %TRUE for `block` and `thread`
 */
gboolean
sluice_behaviour_needs_real_time (const SluiceBehaviour *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return self->kind == SLUICE_BEHAVIOUR_BLOCK || self->kind == SLUICE_BEHAVIOUR_THREAD;
}

/**
 * sluice_mix_entry_free:
 * @entry: (nullable): an entry of a mix
 *
 * Frees @entry and its behaviour.
 */
void
sluice_mix_entry_free (SluiceMixEntry *entry)
{
  if (entry == NULL)
    return;

  sluice_behaviour_free (entry->behaviour);
  g_free (entry);
}

static SluiceMixEntry *
parse_mix_entry (const char  *text,
                 GError     **error)
{
  g_autoptr(SluiceBehaviour) behaviour = NULL;
  g_autoptr(GError) local_error = NULL;
  SluiceMixEntry *entry;
  const char *percent;
  char *end = NULL;
  double weight;

  percent = strchr (text, '%');
  if (percent == NULL)
    {
      g_set_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_INVALID_VALUE,
                   /* Translators: %s is an entry of the mix as typed. Keep “80%% ok 0.05”
                    * as it is (an example of the syntax); %% is a per cent sign. */
                   _("“%s” has no weight; expected “weight%% behaviour”, such as “80%% ok 0.05”"),
                   text);
      return NULL;
    }

  weight = g_ascii_strtod (text, &end);
  if (!_sluice_is_plain_decimal (text, percent - text) ||
      end == text || end != percent || !isfinite (weight) || weight <= 0)
    {
      g_set_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_INVALID_VALUE,
                   /* Translators: %s is an entry of the mix as typed. Keep “80%% ok 0.05”
                    * as it is (an example of the syntax); %% is a per cent sign. */
                   _("“%s” has a bad weight; expected a number > 0 before %%, such as “80%% ok 0.05”"),
                   text);
      return NULL;
    }

  behaviour = sluice_behaviour_parse (percent + 1, &local_error);
  if (behaviour == NULL)
    {
      g_set_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_INVALID_VALUE,
                   /* Translators: the first %s is an entry of the mix as typed, the
                    * second what is wrong with its behaviour. */
                   _("in “%s”: %s"), text, local_error->message);
      return NULL;
    }

  entry = g_new0 (SluiceMixEntry, 1);
  entry->weight = weight;
  entry->behaviour = g_steal_pointer (&behaviour);

  return entry;
}

/**
 * sluice_mix_parse:
 * @text: a mix, such as `80% ok 0.05, 15% fail 1 ConnectionError 0.01, 5% hang`
 * @error: return location for a %SLUICE_SCENARIO_ERROR
 *
 * Parses the comma-separated entries of a random mix.
 *
 * Returns: (transfer full) (element-type SluiceMixEntry) (nullable): the
 *   entries, at least one, or %NULL on error
 */
GPtrArray *
sluice_mix_parse (const char  *text,
                  GError     **error)
{
  g_autoptr(GPtrArray) entries = NULL;
  g_auto(GStrv) parts = NULL;

  g_return_val_if_fail (text != NULL, NULL);

  entries = g_ptr_array_new_with_free_func ((GDestroyNotify) sluice_mix_entry_free);
  parts = g_strsplit (text, ",", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    {
      SluiceMixEntry *entry;

      g_strstrip (parts[i]);
      if (*parts[i] == '\0')
        {
          g_set_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_INVALID_VALUE,
                       /* Translators: %u counts from 1; %% is a per cent sign. Keep
                        * “weight%% behaviour, …” in the syntax's words or translate
                        * “weight” and “behaviour” as placeholders. */
                       _("entry %u of the mix is empty; expected “weight%% behaviour, …”"), i + 1);
          return NULL;
        }

      entry = parse_mix_entry (parts[i], error);
      if (entry == NULL)
        return NULL;

      g_ptr_array_add (entries, entry);
    }

  return g_steal_pointer (&entries);
}

/**
 * sluice_mix_to_string:
 * @entries: (element-type SluiceMixEntry): the entries of a mix
 *
 * Returns: (transfer full): the mix as a scenario file writes it
 */
char *
sluice_mix_to_string (GPtrArray *entries)
{
  GString *text = g_string_new (NULL);

  g_return_val_if_fail (entries != NULL, NULL);

  for (guint i = 0; i < entries->len; i++)
    {
      SluiceMixEntry *entry = g_ptr_array_index (entries, i);
      g_autofree char *weight = sluice_format_double (entry->weight);
      g_autofree char *behaviour = sluice_behaviour_to_string (entry->behaviour);

      g_string_append_printf (text, "%s%s%% %s", i > 0 ? ", " : "", weight, behaviour);
    }

  return g_string_free (text, FALSE);
}
