/* sluice-json-limits.c: the limits a JSON text from outside must keep
 * before a parser sees it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-json-limits-private.h"

#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <string.h>

static void
set_too_large (gsize    max_size,
               GError **error)
{
  g_autofree char *limit = g_format_size_full (max_size, G_FORMAT_SIZE_IEC_UNITS);

  g_set_error (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE,
               /* Translators: %s is a size such as “64.0 KiB”. */
               _("the JSON text is larger than the limit of %s"), limit);
}

static void
set_too_deep (gsize    offset,
              GError **error)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
               /* Translators: the first %u is a number of levels (64), the
                * second %lu a byte offset, counted from 1. */
               _("the JSON text nests arrays and objects deeper than %u levels (at byte %lu); "
                 "expected at most %u"),
               (guint) SLUICE_JSON_MAX_DEPTH, (gulong) offset + 1, (guint) SLUICE_JSON_MAX_DEPTH);
}

static void
set_bad_escape (gsize    offset,
                GError **error)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
               /* Translators: %lu is a byte offset, counted from 1 */
               _("the JSON text has an escape JSON does not know (at byte %lu); expected one of \\\" \\\\ "
                 "\\/ \\b \\f \\n \\r \\t \\uXXXX"),
               (gulong) offset + 1);
}

static void
set_bad_unicode_escape (gsize    offset,
                    GError **error)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
               /* Translators: %lu is a byte offset, counted from 1; \uD800 is
                * how such an escape is written */
               _("the JSON text has a \\u escape that is not a whole character: fewer than four hex digits, "
                 "or half of a UTF-16 surrogate pair such as \\uD800 alone (at byte %lu)"),
               (gulong) offset + 1);
}

/* The UTF-16 code unit of the \uXXXX escape at @text[@i] (its backslash),
 * or -1 when it is none. */
static gint
escaped_unit (const char *text,
              gsize       size,
              gsize       i)
{
  gint unit = 0;

  if (i + 6 > size || text[i + 1] != 'u')
    return -1;
  for (gsize k = i + 2; k < i + 6; k++)
    {
      if (!g_ascii_isxdigit (text[k]))
        return -1;
      unit = unit * 16 + g_ascii_xdigit_value (text[k]);
    }
  return unit;
}

/* json-glib turns an escaped surrogate without its other half into bytes
 * that are no UTF-8, and g_variant_new_string() then fails a critical: a
 * high surrogate must be followed at once by a low one, and a low one
 * must follow a high one. Returns how many bytes the escape takes (6, or
 * 12 for a pair) past its backslash, or 0 when it is no \u escape. */
static gsize
check_unicode_escape (const char  *text,
                      gsize        size,
                      gsize        i,
                      GError     **error)
{
  gint unit = escaped_unit (text, size, i);
  gint low;

  /* JSON's escapes and no others: json-glib's scanner also takes C's (an
   * octal \666 becomes one byte, no UTF-8). */
  if (i + 1 < size && strchr ("\"\\/bfnrtu", text[i + 1]) == NULL)
    {
      set_bad_escape (i, error);
      return G_MAXSIZE;
    }
  if (unit < 0 && i + 1 < size && text[i + 1] == 'u')
    {
      /* Fewer than four hex digits: JSON allows none, and json-glib reads
       * the digits that are there into any code unit, a surrogate too. */
      set_bad_unicode_escape (i, error);
      return G_MAXSIZE;
    }
  if (unit < 0)
    return 0;
  if (unit >= 0xDC00 && unit <= 0xDFFF)
    {
      set_bad_unicode_escape (i, error);
      return G_MAXSIZE;
    }
  if (unit < 0xD800 || unit > 0xDBFF)
    return 6;
  low = i + 6 < size && text[i + 6] == '\\' ? escaped_unit (text, size, i + 6) : -1;
  if (low < 0xDC00 || low > 0xDFFF)
    {
      set_bad_unicode_escape (i, error);
      return G_MAXSIZE;
    }
  return 12;
}

static void
set_second_value (gsize    offset,
                  GError **error)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
               /* Translators: %lu is a byte offset, counted from 1. */
               _("the JSON text holds a second value (at byte %lu); expected one value"),
               (gulong) offset + 1);
}

static void
set_not_utf8 (gsize    offset,
              GError **error)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
               /* Translators: %lu is a byte offset, counted from 1. */
               _("the JSON text is not valid UTF-8 (at byte %lu)"), (gulong) offset + 1);
}

/* Where a byte of the text is, as json-glib 1.6's scanner (GScanner's,
 * configured by json-glib) sees it: it also takes strings in single quotes
 * (without escapes), and any text from a slash to the next slash is a
 * comment ([/"/ 1] is [1]; a C comment is one only as such, from its
 * slash to the slash that ends it). A `"` inside those must not start a
 * string here, nor a bracket there count. */
typedef enum {
  IN_VALUE,         /* between tokens */
  IN_STRING,        /* "…", with \ escapes */
  IN_SQ_STRING,     /* '…', without */
  IN_COMMENT,       /* slash … slash */
} Where;

/**
 * _sluice_json_check_limits:
 * @text: (array length=length): JSON text from outside (a job's payload, a
 *   line of a recording, a lesson's reveal value)
 * @length: its length in bytes, or -1 when it ends at a nul
 * @max_size: the most bytes the caller takes, %G_MAXSIZE for no limit
 * @error: return location for a %G_IO_ERROR: %G_IO_ERROR_MESSAGE_TOO_LARGE
 *   or %G_IO_ERROR_INVALID_DATA, whose message says which limit and where
 *
 * Checks @text without parsing it, before a recursive parser does: valid
 * UTF-8 without a nul, arrays and objects nested at most
 * %SLUICE_JSON_MAX_DEPTH deep, and no more than @max_size bytes (a nesting
 * too deep is found before a size too large, from the text's start). Brackets inside strings and comments
 * do not count, with strings and comments as json-glib reads them (a `\"`
 * does not end a string; single quotes make a string, two slashes a
 * comment). An array or object after a first value
 * (`{…}{…}`) is refused too: json-glib 1.6 parses it and leaks it.
 * Whether @text is valid JSON is otherwise left to the parser: up to the
 * first byte it refuses, it has seen the same strings and brackets as this
 * count, and it reads nothing after that byte.
 *
 * Returns: whether @text keeps the limits
 */
gboolean
_sluice_json_check_limits (const char  *text,
                           gssize       length,
                           gsize        max_size,
                           GError     **error)
{
  Where where = IN_VALUE;
  gboolean seen_value = FALSE;  /* the first top-level value has begun */
  const char *valid_end = NULL;
  guint depth = 0;
  gsize size;

  g_return_val_if_fail (text != NULL || length == 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* The first limit the text goes beyond, reading from its start: a
   * nesting too deep at byte 65 before a size too large at byte 65,537. */
  size = length < 0 ? strlen (text) : (gsize) length;
  /* json-glib hands on strings that are not UTF-8 (g_variant_new_string()
   * then fails a critical), and a nul would end its text early. */
  if (!g_utf8_validate_len (text, MIN (size, max_size), &valid_end))
    {
      set_not_utf8 ((gsize) (valid_end - text), error);
      return FALSE;
    }
  for (gsize i = 0; i < size; i++)
    {
      char c = text[i];

      if (i >= max_size)
        break;

      switch (where)
        {
        case IN_STRING:
          /* An escape's second byte never ends the string. */
          if (c == '\\')
            {
              gsize taken = check_unicode_escape (text, MIN (size, max_size), i, error);

              if (taken == G_MAXSIZE)
                return FALSE;
              i += taken > 0 ? taken - 1 : 1;
            }
          else if (c == '"')
            where = IN_VALUE;
          break;
        case IN_SQ_STRING:
          if (c == '\'')
            where = IN_VALUE;
          break;
        case IN_COMMENT:
          if (c == '/')
            where = IN_VALUE;
          break;
        case IN_VALUE:
        default:
          /* json-glib 1.6 parses an array or object after the first value
           * too, and leaks it: `{…}{…}`, `3 [1]`. */
          if (depth == 0 && (c == '[' || c == '{') && seen_value)
            {
              set_second_value (i, error);
              return FALSE;
            }
          if (depth == 0 && !g_ascii_isspace (c) && c != '/')
            seen_value = TRUE;
          if (c == '"')
            where = IN_STRING;
          else if (c == '\'')
            where = IN_SQ_STRING;
          else if (c == '/')
            where = IN_COMMENT;
          else if ((c == '[' || c == '{') && ++depth > SLUICE_JSON_MAX_DEPTH)
            {
              set_too_deep (i, error);
              return FALSE;
            }
          else if ((c == ']' || c == '}') && depth > 0)
            depth--;
          break;
        }
    }
  if (size > max_size)
    {
      set_too_large (max_size, error);
      return FALSE;
    }
  return TRUE;
}
