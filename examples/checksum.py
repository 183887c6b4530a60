#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""SHA-256 of every file under a folder, several files at a time.

    checksum.py [--workers N] [--timeout SECONDS] [--retries N] FOLDER

Prints `<sha256>  <path>` for each file as soon as it is hashed, in the
format of sha256sum(1) (so `sha256sum -c` can check the output), and at the
end the files that could not be hashed and why. Exits 0 when every file was
hashed, 1 when some were not, 2 on a usage error, 130 when interrupted.

Each file is hashed in a worker thread of a Sluice thread handler, so the
main loop stays free; the pool gives each file a timeout, and retries the
errors that may pass (EAGAIN, EINTR, EIO, EBUSY, ENFILE, EMFILE, ESTALE,
ETIMEDOUT) with an exponential backoff. Special files are refused rather
than read: a FIFO would block forever, a device may never end.

Run it against the build tree:

    GI_TYPELIB_PATH=build/src/sluice LD_LIBRARY_PATH=build/src/sluice \\
        python3 examples/checksum.py ~/Pictures

With SLUICE_MONITOR=session in its environment, the pool is exported on the
session bus, and the Sluice app can attach to it while it runs.
"""

import argparse
import errno
import hashlib
import os
import signal
import stat
import sys

import gi

gi.require_version('GLib', '2.0')
gi.require_version('Gio', '2.0')
gi.require_version('Sluice', '1')
from gi.repository import GLib, Gio, Sluice  # noqa: E402

CHUNK = 1 << 20
TRANSIENT = {errno.EAGAIN, errno.EINTR, errno.EIO, errno.EBUSY, errno.ENFILE,
             errno.EMFILE, errno.ESTALE, errno.ETIMEDOUT}


def named_error(type_name, message):
    """A GLib.Error the pool knows by `type_name`, the name its
    `retryable` option lists and its error group shows."""
    return Sluice.named_error_new_literal(type_name, message)


def os_error(error):
    name = 'TransientIOError' if error.errno in TRANSIENT else type(error).__name__
    return named_error(name, error.strerror or str(error))


def hash_file(item, cancellable, _data):
    """Runs in a worker thread: the item is the path (a bytestring); the
    result is (path, hex digest). Raising a GLib.Error fails the attempt."""
    path = item.get_bytestring()
    try:
        # O_NONBLOCK: a FIFO must not block the open; a regular file ignores it.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as e:
        raise os_error(e)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise named_error('NotARegularFileError', 'not a regular file')
        digest = hashlib.sha256()
        while True:
            # The pool cancels an attempt that runs past its timeout, or when
            # the run is cancelled; the thread cannot be killed, so it looks.
            if cancellable.is_cancelled():
                raise GLib.Error.new_literal(Gio.io_error_quark(), 'hashing cancelled',
                                             Gio.IOErrorEnum.CANCELLED)
            try:
                chunk = os.read(fd, CHUNK)
            except OSError as e:
                raise os_error(e)
            if not chunk:
                break
            digest.update(chunk)
    finally:
        os.close(fd)
    return GLib.Variant.new_tuple(GLib.Variant.new_bytestring(path),
                                  GLib.Variant.new_string(digest.hexdigest()))


def sha256sum_line(path, hexdigest):
    """sha256sum's line: a name with a backslash or a newline is escaped,
    and the line then starts with a backslash."""
    if b'\\' in path or b'\n' in path:
        path = path.replace(b'\\', b'\\\\').replace(b'\n', b'\\n')
        return b'\\' + hexdigest.encode() + b'  ' + path + b'\n'
    return hexdigest.encode() + b'  ' + path + b'\n'


def shown(path):
    return os.fsdecode(path).encode('utf-8', 'backslashreplace').decode('utf-8')


def repr_error(type_name, message):
    return '%s(%s)' % (type_name, Sluice.repr_string(message or ''))


def list_files(folder, failures):
    """Every file under `folder`, in a stable order; a folder that cannot be
    listed goes into `failures`. Links to folders are not followed."""
    def walk_error(error):
        failures.append((os.fsencode(error.filename or folder), type(error).__name__,
                         error.strerror or str(error)))

    paths = []
    for top, dirs, files in os.walk(os.fsencode(folder), onerror=walk_error):
        dirs.sort()
        paths.extend(os.path.join(top, name) for name in sorted(files))
    return paths


def main(argv):
    parser = argparse.ArgumentParser(
        prog='checksum.py',
        description='Print the SHA-256 of every file under FOLDER, several at a time.')
    parser.add_argument('folder', metavar='FOLDER')
    parser.add_argument('--workers', type=int, default=min(8, os.cpu_count() or 1),
                        help='files hashed at once (default: the processors, at most 8)')
    parser.add_argument('--timeout', type=float, default=60.0,
                        help='seconds one file may take (default: 60)')
    parser.add_argument('--retries', type=int, default=3,
                        help='retries of a file after a transient I/O error (default: 3)')
    args = parser.parse_args(argv)

    if not os.path.isdir(args.folder):
        print(f'checksum.py: {args.folder}: not a folder', file=sys.stderr)
        return 2

    GLib.set_prgname('checksum.py')
    failures = []          # (path, type name, message), in the order they happened
    paths = list_files(args.folder, failures)

    handler = Sluice.ThreadHandler.new(hash_file, None, max(args.workers, 1))
    try:
        # The usual construction: g_object_new() then g_initable_init(), which
        # checks the options (and exports the pool when SLUICE_MONITOR says so).
        pool = Sluice.Pool(handler=handler,
                           workers=args.workers,
                           queue_size=2 * max(args.workers, 1),
                           item_timeout=args.timeout,
                           max_retries=args.retries,
                           retryable=['TransientIOError'],
                           backoff=Sluice.Backoff.EXPONENTIAL,
                           backoff_base=0.1,
                           backoff_cap=2.0,
                           keep_going=True)
        pool.init(None)
    except GLib.Error as e:
        print(f'checksum.py: {e.message}', file=sys.stderr)
        return 2

    def on_event(event, _data):
        # The item index is the position in pull order: in `paths`.
        if event.kind == Sluice.EventKind.ITEM_FAILED:
            failures.append((paths[event.item], event.error_type, event.error_message))
        elif event.kind == Sluice.EventKind.ATTEMPT_END and event.retried:
            print(f'checksum.py: {shown(paths[event.item])}: '
                  f'{repr_error(event.error_type, event.error_message)}, retrying',
                  file=sys.stderr)

    pool.set_event_func(on_event, None)

    source = Sluice.ArraySource.new([GLib.Variant.new_bytestring(p) for p in paths])
    run = pool.run(source)
    loop = GLib.MainLoop()
    out = sys.stdout.buffer
    state = {'interrupted': 0, 'error': None, 'broken_pipe': False}

    def on_batch(run, result, _data):
        try:
            batch = run.next_batch_finish(result)
        except GLib.Error as e:
            state['error'] = e         # the error group, or the cancel
            loop.quit()
            return
        if not batch:                  # PyGObject gives the end (NULL) as []
            loop.quit()
            return
        try:
            for digest in batch:
                out.write(sha256sum_line(digest.get_child_value(0).get_bytestring(),
                                         digest.get_child_value(1).get_string()))
            out.flush()
        except BrokenPipeError:        # `checksum.py DIR | head`: nobody reads on
            os.dup2(os.open(os.devnull, os.O_WRONLY), out.fileno())
            state['broken_pipe'] = True
            run.cancel()
        run.next_batch_async(0, None, on_batch, None)

    def on_interrupt():
        # First ^C: take no more files, hash those already taken (running or
        # queued) and stop; the second cancels them.
        state['interrupted'] += 1
        if state['interrupted'] == 1:
            print('checksum.py: stopping once the files already taken are hashed'
                  ' (^C again to cancel them)', file=sys.stderr)
            pool.request_stop()
        else:
            run.cancel()
        return GLib.SOURCE_CONTINUE

    interrupt = GLib.unix_signal_add(GLib.PRIORITY_HIGH, signal.SIGINT, on_interrupt)
    run.next_batch_async(0, None, on_batch, None)
    loop.run()
    GLib.source_remove(interrupt)
    # An exported pool (SLUICE_MONITOR=session) sends its last events to
    # the monitors before the program exits: the interpreter may never
    # finalize it.
    pool.unexport()

    stats = run.get_stats()
    if state['broken_pipe']:
        return 1
    if failures:
        print(f'checksum.py: {len(failures)} of {len(paths)} files could not be hashed:',
              file=sys.stderr)
        for path, type_name, message in failures:
            print(f'  {shown(path)}: {repr_error(type_name, message)}', file=sys.stderr)
    error = state['error']
    if error is not None and not error.matches(Sluice.error_quark(), Sluice.Error.GROUP):
        print(f'checksum.py: {error.message}', file=sys.stderr)
    if state['interrupted']:
        print(f'checksum.py: interrupted: {stats.succeeded} of {len(paths)} files hashed',
              file=sys.stderr)
        return 130
    return 0 if not failures and stats.succeeded == len(paths) else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
