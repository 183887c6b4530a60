/* sluice-file-part.c: a file written under FILE.part and renamed to FILE
 * when complete
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-file-part-private.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gunixoutputstream.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <sys/stat.h>
#include <unistd.h>

/**
 * SluiceFilePart:
 *
 * What Sluice writes to a file a person named (`sluice-run --events` and
 * `--record`, the app's Save Run and exports) is written to `FILE.part` in
 * the same folder, flushed to the disk and renamed to `FILE` once whole: a
 * run killed while it writes (kill -9, a crash, a full disk) leaves FILE as
 * it was, or absent, never cut short; at worst a `FILE.part` stays, which
 * the next write to FILE replaces.
 *
 * g_file_replace() is not enough: it writes a file that does not exist yet
 * in place under its final name (GLib 2.74), and closing it after a failed
 * write still puts the partial file in place. The rename replaces FILE
 * itself (a symbolic link named FILE becomes the file), as
 * g_file_set_contents() does.
 */
struct _SluiceFilePart
{
  char          *path;
  char          *part_path; /* NULL when FILE is written as it is */
  int            fd;        /* the stream's, for fsync() */
  GOutputStream *stream;
  gboolean       done;      /* committed, or given up */
};

G_GNUC_PRINTF (3, 4) static void
set_errno_error (GError     **error,
                 int          errsv,
                 const char  *format,
                 ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error_literal (error, G_IO_ERROR, g_io_error_from_errno (errsv), message);
}

/* A new FILE.part, never one another writer still holds open: a stale one
 * (a killed run's) is removed first and the new one made exclusively. It
 * takes the permissions of the FILE it replaces, as g_file_replace() does. */
static int
create_part (const char  *part_path,
             struct stat *replaced,
             GError     **error)
{
  int fd, errsv;

  if (g_unlink (part_path) != 0 && errno != ENOENT)
    {
      errsv = errno;
      /* Translators: the first %s is a file, the second the system's reason. */
      set_errno_error (error, errsv, _("cannot replace %s: %s"), part_path, g_strerror (errsv));
      return -1;
    }
  fd = g_open (part_path, O_WRONLY | O_CREAT | O_EXCL | O_NOCTTY | O_CLOEXEC, 0666);
  if (fd < 0)
    {
      errsv = errno;
      /* Translators: the first %s is a file, the second the system's reason. */
      set_errno_error (error, errsv, _("cannot create %s: %s"), part_path, g_strerror (errsv));
      return -1;
    }
  if (replaced != NULL)
    (void) fchmod (fd, replaced->st_mode & 07777);
  return fd;
}

/* A FILE that is no regular file (/dev/null, a terminal, a pipe) has no
 * whole or partial state: it is written as it is, and never renamed. */
static int
open_special (const char  *path,
              GError     **error)
{
  int fd = g_open (path, O_WRONLY | O_NOCTTY | O_CLOEXEC, 0);

  if (fd < 0)
    {
      int errsv = errno;

      /* Translators: the first %s is a file, the second the system's reason. */
      set_errno_error (error, errsv, _("cannot open %s: %s"), path, g_strerror (errsv));
    }
  return fd;
}

/**
 * _sluice_file_part_new:
 * @path: the file to write in the end
 * @error: return location for a %G_IO_ERROR naming `@path.part`
 *
 * Creates `@path.part` to write to; see #SluiceFilePart. Nothing happens
 * to @path until _sluice_file_part_commit().
 *
 * Returns: (transfer full) (nullable): the file being written
 */
SluiceFilePart *
_sluice_file_part_new (const char  *path,
                       GError     **error)
{
  g_autofree char *part_path = NULL;
  SluiceFilePart *self;
  gboolean exists;
  struct stat st;
  int fd;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  exists = g_stat (path, &st) == 0;
  if (exists && S_ISDIR (st.st_mode))
    {
      /* Refused now, not when the rename fails after a whole run. */
      /* Translators: the first %s is a file, the second the system's reason. */
      set_errno_error (error, EISDIR, _("cannot write %s: %s"), path, g_strerror (EISDIR));
      return NULL;
    }
  if (exists && !S_ISREG (st.st_mode))
    fd = open_special (path, error);
  else
    {
      part_path = g_strconcat (path, ".part", NULL);
      fd = create_part (part_path, exists ? &st : NULL, error);
    }
  if (fd < 0)
    return NULL;

  self = g_new0 (SluiceFilePart, 1);
  self->path = g_strdup (path);
  self->part_path = g_steal_pointer (&part_path);
  self->fd = fd;
  self->stream = g_unix_output_stream_new (fd, TRUE);
  return self;
}

/**
 * _sluice_file_part_get_stream:
 * @self: a file being written
 *
 * Returns: (transfer none): the stream of `FILE.part`; close it only with
 *   _sluice_file_part_commit()
 */
GOutputStream *
_sluice_file_part_get_stream (SluiceFilePart *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->stream;
}

/**
 * _sluice_file_part_get_path:
 * @self: a file being written
 *
 * Returns: the file it becomes, for messages
 */
const char *
_sluice_file_part_get_path (SluiceFilePart *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->path;
}

static gboolean
flush_and_close (SluiceFilePart  *self,
                 GError         **error)
{
  if (!g_output_stream_flush (self->stream, NULL, error))
    return FALSE;
  /* On the disk before the rename: a power cut after it must not leave an
   * empty FILE where the old one was. */
  if (self->part_path != NULL && fsync (self->fd) != 0)
    {
      int errsv = errno;

      /* Translators: the first %s is a file, the second the system's reason. */
      set_errno_error (error, errsv, _("cannot write %s: %s"), self->part_path, g_strerror (errsv));
      return FALSE;
    }
  return g_output_stream_close (self->stream, NULL, error);
}

/**
 * _sluice_file_part_commit:
 * @self: a file being written, whole
 * @error: return location for a %G_IO_ERROR
 *
 * Flushes `FILE.part` to the disk, closes it and renames it to FILE. On
 * failure `FILE.part` is removed and FILE is as it was.
 *
 * Returns: whether FILE now holds what was written
 */
gboolean
_sluice_file_part_commit (SluiceFilePart  *self,
                          GError         **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (!self->done, FALSE);

  self->done = TRUE;
  if (!flush_and_close (self, error))
    {
      if (self->part_path != NULL)
        g_unlink (self->part_path);
      return FALSE;
    }
  if (self->part_path != NULL && g_rename (self->part_path, self->path) != 0)
    {
      int errsv = errno;

      g_unlink (self->part_path);
      /* Translators: the first %s is a file, the second the system's reason. */
      set_errno_error (error, errsv, _("cannot replace %s: %s"), self->path, g_strerror (errsv));
      return FALSE;
    }
  return TRUE;
}

/**
 * _sluice_file_part_free:
 * @self: (nullable): a file being written, or committed
 *
 * Frees @self; when it was not committed, `FILE.part` is closed and
 * removed, and FILE is as it was.
 */
void
_sluice_file_part_free (SluiceFilePart *self)
{
  if (self == NULL)
    return;

  if (!self->done)
    {
      g_output_stream_close (self->stream, NULL, NULL);
      if (self->part_path != NULL)
        g_unlink (self->part_path);
    }
  g_object_unref (self->stream);
  g_free (self->path);
  g_free (self->part_path);
  g_free (self);
}
