/* fuzz-json.c: a libFuzzer target for the limits JSON from outside keeps
 * before json-glib parses it (src/util/sluice-json-limits.c), and for the
 * parsing a job's payload then goes through (sluice-payload-handler.c:
 * json_from_string(), json_gvariant_deserialize(); the store's enqueue
 * check and a lesson's reveal value parse the same way)
 *
 * Any input is either refused with a G_IO_ERROR, or json-glib parses it
 * (or refuses it) without overflowing its stack, and what it parses nests
 * no deeper than SLUICE_JSON_MAX_DEPTH: a text the count let through that
 * json-glib reads deeper (a string or a comment the count took for
 * another) aborts. So does a crash, a sanitizer report, or any GLib
 * warning or critical.
 *
 * Built with -Dfuzzing=true and clang (see tests/fuzz/meson.build); its
 * seed corpus is tests/fuzz/corpus-json.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-common.h"
#include "sluice-json-limits-private.h"

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  fuzz_init ();
  return 0;
}

/* How deep @node nests arrays and objects; the recursion is as deep as
 * the nesting, which the check bounded. */
static guint
depth_of (JsonNode *node)
{
  guint deepest = 0;

  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          guint depth = depth_of (json_array_get_element (array, i));

          deepest = MAX (deepest, depth);
        }
      return deepest + 1;
    }
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObjectIter iter;
      JsonNode *member;

      json_object_iter_init (&iter, json_node_get_object (node));
      while (json_object_iter_next (&iter, NULL, &member))
        {
          guint depth = depth_of (member);

          deepest = MAX (deepest, depth);
        }
      return deepest + 1;
    }
  return 0;
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autofree char *text = g_strndup ((const char *) data, size);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GVariant) value = NULL;
  guint depth;

  /* As the payload handler and the store read it: nul-terminated text. */
  if (!_sluice_json_check_limits (text, -1, 32 * 1024, &error))
    {
      if (error == NULL || error->domain != G_IO_ERROR ||
          (error->code != G_IO_ERROR_INVALID_DATA && error->code != G_IO_ERROR_MESSAGE_TOO_LARGE))
        abort ();
      return 0;
    }
  if (error != NULL)
    abort ();

  root = json_from_string (text, NULL);
  if (root == NULL)
    return 0;
  depth = depth_of (root);
  if (depth > SLUICE_JSON_MAX_DEPTH)
    {
      fprintf (stderr, "fuzz-json: the check let through a text json-glib reads %u deep\n", depth);
      abort ();
    }
  /* What the payload handler does with a value that is no integer. */
  value = json_gvariant_deserialize (root, NULL, NULL);
  if (value != NULL)
    g_variant_ref_sink (value);
  return 0;
}
