/* test-json-limits.c: the limits every JSON text from outside keeps
 * before json-glib parses it (issue 25): a nesting deeper than
 * SLUICE_JSON_MAX_DEPTH or a text larger than the caller's limit is
 * refused with an error that says which and where, and what keeps them
 * parses as before
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "sluice-json-limits-private.h"

/* @depth arrays, one inside the other, around @core. */
static char *
nested (guint       depth,
        const char *core)
{
  GString *text = g_string_sized_new (2 * depth + strlen (core));

  for (guint i = 0; i < depth; i++)
    g_string_append_c (text, '[');
  g_string_append (text, core);
  for (guint i = 0; i < depth; i++)
    g_string_append_c (text, ']');
  return g_string_free (text, FALSE);
}

static void
assert_too_deep (const char *text,
                 gsize       byte)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *where = g_strdup_printf ("(at byte %" G_GSIZE_FORMAT ")", byte);

  g_assert_false (_sluice_json_check_limits (text, -1, G_MAXSIZE, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "deeper than 64 levels"));
  g_assert_nonnull (strstr (error->message, where));
}

static void
test_deep_nesting_is_refused (void)
{
  g_autofree char *arrays = nested (200000, "1");
  g_autoptr(GString) objects = g_string_new (NULL);

  assert_too_deep (arrays, SLUICE_JSON_MAX_DEPTH + 1);

  for (guint i = 0; i < 200000; i++)
    g_string_append (objects, "{\"a\":");
  assert_too_deep (objects->str, 5 * SLUICE_JSON_MAX_DEPTH + 1);
}

/* 64 levels parse, and so do two of 64 side by side. */
static void
test_depth_at_the_limit_is_accepted (void)
{
  g_autofree char *at_limit = nested (SLUICE_JSON_MAX_DEPTH, "1");
  g_autofree char *inner = nested (SLUICE_JSON_MAX_DEPTH - 1, "1");
  g_autofree char *twice = g_strdup_printf ("[%s,%s]", inner, inner);
  g_autofree char *one_more = nested (SLUICE_JSON_MAX_DEPTH + 1, "1");
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = NULL;

  g_assert_true (_sluice_json_check_limits (at_limit, -1, G_MAXSIZE, &error));
  g_assert_no_error (error);
  root = json_from_string (at_limit, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_ARRAY (root));
  g_assert_true (_sluice_json_check_limits (twice, -1, G_MAXSIZE, &error));
  g_assert_no_error (error);
  assert_too_deep (one_more, SLUICE_JSON_MAX_DEPTH + 1);
}

/* Brackets in strings and comments are not nesting, however many; a
 * quote inside a string of the other kind, or in a comment, starts no
 * string (json-glib 1.6 takes '…' strings, and any text from a slash to
 * the next slash as a comment: [/"/ 1] is [1], and a slash, a star and a
 * slash are a whole comment, not the start of a C comment). */
static void
test_brackets_in_strings_do_not_count (void)
{
  g_autofree char *deep = nested (SLUICE_JSON_MAX_DEPTH + 1, "");
  g_autofree char *in_string = g_strdup_printf ("[\"%s\", \"\\\"%s\"]", deep, deep);
  g_autofree char *in_sq_string = g_strdup_printf ("['%s\\']", deep);
  g_autofree char *in_comment = g_strdup_printf ("[1 /* %s */]", deep);
  g_autofree char *in_slash_comment = g_strdup_printf ("[1 /%s/]", deep);
  /* What json-glib reads as a string or a comment, then deep nesting. */
  static const char * const prefixes[] = { "['\"', ", "[/* \" */ ", "[\"\\\\\", ", "[/\"/ ", "[1, /a\"b/ ",
                                           "[1 /*/ " };
  g_autoptr(GError) error = NULL;

  g_assert_true (_sluice_json_check_limits (in_string, -1, G_MAXSIZE, &error));
  g_assert_no_error (error);
  g_assert_true (_sluice_json_check_limits (in_sq_string, -1, G_MAXSIZE, &error));
  g_assert_no_error (error);
  g_assert_true (_sluice_json_check_limits (in_comment, -1, G_MAXSIZE, &error));
  g_assert_no_error (error);
  g_assert_true (_sluice_json_check_limits (in_slash_comment, -1, G_MAXSIZE, &error));
  g_assert_no_error (error);

  for (guint i = 0; i < G_N_ELEMENTS (prefixes); i++)
    {
      g_autofree char *text = g_strconcat (prefixes[i], deep, "]", NULL);

      /* The 64th bracket of @deep is the 65th level. */
      assert_too_deep (text, strlen (prefixes[i]) + SLUICE_JSON_MAX_DEPTH);
    }
}

/* json-glib 1.6 parses an array or object after the first value and
 * leaks it: such a text is refused, saying where the second one starts. */
static void
test_second_value_is_refused (void)
{
  static const struct { const char *text; gsize byte; } cases[] = {
    { "{\"a\": 1}{\"b\": 2}", 9 },
    { "[1] [2, [3]]", 5 },
    { "3 [1]", 3 },
    { "\"x\" {\"a\": [1]}", 5 },
    { "/* a comment first */ [1] /* and after */ [2]", 43 },
    { "[1] /a slash comment/ {}", 23 },
    { "1/*/{}", 5 },
  };
  static const char * const accepted[] = {
    "/* a comment first */ [1] /* and after */",
    "/ a slash comment / [1] /and after/",
    "  {\"a\": [1, {\"b\": 2}]}\n",
    "\"[1] [2]\"",
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *where = g_strdup_printf ("(at byte %" G_GSIZE_FORMAT ")", cases[i].byte);

      g_test_message ("%s", cases[i].text);
      g_assert_false (_sluice_json_check_limits (cases[i].text, -1, G_MAXSIZE, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
      g_assert_nonnull (strstr (error->message, "holds a second value"));
      g_assert_nonnull (strstr (error->message, where));
    }
  for (guint i = 0; i < G_N_ELEMENTS (accepted); i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_true (_sluice_json_check_limits (accepted[i], -1, G_MAXSIZE, &error));
      g_assert_no_error (error);
    }
}

/* json-glib takes bytes that are not UTF-8 into its strings (and
 * g_variant_new_string() fails a critical on them), and a nul ends its
 * text early: both are refused, saying where. */
static void
test_text_that_is_not_utf8_is_refused (void)
{
  static const char latin1[] = "{\"value\": \"caf\xe9\"}";
  static const char with_nul[] = "[1, \"a\0b\"]";
  g_autoptr(GError) error = NULL;

  g_assert_false (_sluice_json_check_limits (latin1, -1, G_MAXSIZE, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "not valid UTF-8 (at byte 15)"));
  g_clear_error (&error);

  g_assert_false (_sluice_json_check_limits (with_nul, sizeof with_nul - 1, G_MAXSIZE, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_nonnull (strstr (error->message, "not valid UTF-8 (at byte 7)"));
  g_clear_error (&error);

  g_assert_true (_sluice_json_check_limits ("[\"café\", \"日本\"]", -1, G_MAXSIZE, &error));
  g_assert_no_error (error);
}

/* The caller's size limit, and a length shorter than the text's. */
static void
test_size_limit_is_the_callers (void)
{
  const char *text = "{\"value\": [1, 2, 3]}";
  g_autoptr(GError) error = NULL;

  g_assert_true (_sluice_json_check_limits (text, -1, strlen (text), &error));
  g_assert_no_error (error);
  g_assert_false (_sluice_json_check_limits (text, -1, strlen (text) - 1, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "larger than the limit of 19 bytes"));
  g_clear_error (&error);

  g_assert_true (_sluice_json_check_limits (text, 5, 5, &error));
  g_assert_no_error (error);
}


/* Found by fuzz-json: json-glib turns an escaped half of a surrogate pair
 * (or a \u with fewer than four digits, which it reads into any code
 * unit) into bytes that are no UTF-8, and json_gvariant_deserialize() (the
 * payload handler's) then failed a critical. A whole pair, and every other
 * escape, parse as before. */
static void
test_lone_surrogate_escape_is_refused (void)
{
  const char *refused[] = {
    "[\"\\ud800\"]", "[\"a\\uDBFFb\"]", "[\"\\udc00\"]", "[\"\\ud800\\u0041\"]", "{\"value\": \"\\ud83d\"}",
    "\"\\ud800", "\"\\ud800\\", "[\"\\udc0\\ud700\"]", "[\"\\u12\"]", NULL,
  };
  const char *c_escapes[] = { "\"\\66666666udb00\\0\"", "[\"\\x41\"]", "[\"\\a\"]", "[\"\\'\"]", NULL };
  const char *accepted[] = { "[\"\\ud83d\\ude00\"]", "[\"\\u0041\\u00e9\"]", "[\"\\\\ud800\"]", "[\"\\n\\\"\"]",
                             "[\"\\/\\b\\f\\r\\t\"]", NULL };

  for (guint i = 0; refused[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_false (_sluice_json_check_limits (refused[i], -1, G_MAXSIZE, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
      g_assert_nonnull (strstr (error->message, "\\u escape"));
    }
  /* C's escapes, which json-glib's scanner takes too: an octal one becomes
   * a byte that is no UTF-8. */
  for (guint i = 0; c_escapes[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_false (_sluice_json_check_limits (c_escapes[i], -1, G_MAXSIZE, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
      g_assert_nonnull (strstr (error->message, "escape JSON does not know"));
    }
  for (guint i = 0; accepted[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) root = NULL;
      g_autoptr(GVariant) value = NULL;

      g_assert_true (_sluice_json_check_limits (accepted[i], -1, G_MAXSIZE, &error));
      g_assert_no_error (error);
      root = json_from_string (accepted[i], &error);
      g_assert_no_error (error);
      value = json_gvariant_deserialize (root, NULL, &error);
      g_assert_no_error (error);
      g_assert_nonnull (value);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/json-limits/deep-nesting-is-refused", test_deep_nesting_is_refused);
  g_test_add_func ("/json-limits/depth-at-the-limit-is-accepted", test_depth_at_the_limit_is_accepted);
  g_test_add_func ("/json-limits/brackets-in-strings-do-not-count", test_brackets_in_strings_do_not_count);
  g_test_add_func ("/json-limits/second-value-is-refused", test_second_value_is_refused);
  g_test_add_func ("/json-limits/text-that-is-not-utf8-is-refused", test_text_that_is_not_utf8_is_refused);
  g_test_add_func ("/json-limits/size-limit-is-the-callers", test_size_limit_is_the_callers);
  g_test_add_func ("/json-limits/lone-surrogate-escape-is-refused", test_lone_surrogate_escape_is_refused);

  return g_test_run ();
}
