"""What blurlab's python tools (results.py, charts.py, program_dump.py) share: blurlab's rules for
what they read, write and print (src/util/files.h, src/util/error.h), so that a tool we ship takes
bad input as the program does.

- Input files: a regular file of bounded size, opened without waiting (a FIFO without a writer hung
  a tool, /dev/zero grew it without end), refused otherwise with one line.
- Output files: written whole or not at all, as blurlab writes them: a new file beside the target
  renamed over it (the file a link leads to is replaced, the link kept), a character device or a
  FIFO written through, anything else refused; never by replacing a link that leads through /proc
  (/dev/stdout of a shell that redirected it to a file) or a read-only file. Outputs go only inside
  the folder the user asked for: a name that would leave it ("../x") is refused.
- Messages: one line on stderr, "TOOL: MESSAGE", control characters escaped, and an exit code (2
  for a bad option, 1 for a bad file or a failed write), never a traceback.

The tools import it from beside them; blurlab --report, which runs charts.py's text with python3
-I in a private folder of its own, writes this file there too (src/report/page.cpp).
"""
import argparse
import io
import json
import os
import re
import stat
import sys
import tempfile

# Reports and results files are a few MiB; a chart-sized program dump under one.
MAX_INPUT_BYTES = 256 << 20


class ToolError(Exception):
    """A failure with its reason: printed as one line, exit code `code` (1, or 2 for a usage mistake)."""

    def __init__(self, message, code=1):
        super().__init__(message)
        self.code = code


def one_line(text):
    """`text` as one printable line, as blurlab's single_line(): control characters as \\n, \\e,
    \\xNN, C1 controls (U+0080..U+009F) as \\u00NN, and a byte 0x80..0x9F outside any UTF-8
    character (an undecodable one, an 8-bit CSI) as \\xNN."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "surrogateescape")
    out = []
    for ch in str(text):
        c = ord(ch)
        if ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif c == 0x1B:
            out.append("\\e")
        elif c < 0x20 or c == 0x7F:
            out.append(f"\\x{c:02x}")
        elif 0x80 <= c <= 0x9F:
            out.append(f"\\u{c:04x}")
        elif 0xDC80 <= c <= 0xDCFF:  # a byte that was no UTF-8 (surrogateescape)
            byte = c - 0xDC00
            out.append(f"\\x{byte:02x}" if byte <= 0x9F else bytes([byte]).decode("latin-1"))
        else:
            out.append(ch)
    return "".join(out)


def quoted(path):
    return "'" + one_line(os.fsdecode(path)) + "'"


def _kind(mode):
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file"


def read_bytes(path, what, limit=MAX_INPUT_BYTES):
    """A regular file read whole, at most `limit` bytes; anything else refused before it is read."""
    def failure(why):
        return ToolError(f"cannot read {what} {quoted(path)}: {why}")
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise failure(f"it is {_kind(info.st_mode)}, not a regular file")
        # Without waiting: the name may be a FIFO by now.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:
        raise failure(e.strerror or str(e))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise failure(f"it is {_kind(info.st_mode)}, not a regular file")
        if info.st_size > limit:
            raise failure(f"it holds {info.st_size} bytes; at most {limit} are read")
        chunks, total = [], 0
        while True:  # one byte past the limit tells a file that grew (or /proc's, which say 0)
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise failure(f"it holds more than {limit} bytes; at most {limit} are read")
        return b"".join(chunks)
    except OSError as e:
        raise failure(e.strerror or str(e))
    finally:
        os.close(fd)


def read_text(path, what, limit=MAX_INPUT_BYTES):
    return read_bytes(path, what, limit).decode("utf-8", "replace")


def read_json(path, what):
    """A JSON file (bounded as read_bytes), parsed; one line for a file that is not JSON."""
    text = read_text(path, what)
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as e:
        raise ToolError(f"{what} {quoted(path)} is not JSON ({one_line(str(e))[:160]})")


def _through_proc(path):
    """Whether following `path`'s links passes through /proc (/dev/stdout -> /proc/self/fd/1)."""
    current = os.fsdecode(path)
    for _ in range(40):
        try:
            if not stat.S_ISLNK(os.lstat(current).st_mode):
                return False
            target = os.readlink(current)
        except OSError:
            return False
        parent = os.path.realpath(os.path.dirname(current) or ".")
        if parent == "/proc" or parent.startswith("/proc/"):
            return True
        current = target if os.path.isabs(target) else os.path.join(os.path.dirname(current), target)
    return False


def _file_behind(path):
    """The file a name leads to, following its links one at a time (it may not exist yet)."""
    current = os.fsdecode(path)
    for _ in range(40):
        try:
            if not stat.S_ISLNK(os.lstat(current).st_mode):
                return current
            target = os.readlink(current)
        except OSError:
            return current
        current = target if os.path.isabs(target) else os.path.join(os.path.dirname(current), target)
    raise ToolError(f"cannot write {quoted(path)}: too many levels of symbolic links")


def check_output(path, what):
    """Why `path` cannot be written as blurlab writes an output (raises ToolError), before any work."""
    def refused(why):
        return ToolError(f"cannot write {what} {quoted(path)}: {why}")
    try:
        info = os.stat(path)
    except FileNotFoundError:
        if os.path.islink(path):
            raise refused(f"it is a symbolic link to {quoted(os.readlink(path))}, which does not exist")
        folder = os.path.dirname(os.fsdecode(path)) or "."
        if not os.path.isdir(folder):
            raise refused(f"{quoted(folder)} is not a directory")
        if not os.access(folder, os.W_OK | os.X_OK):
            raise refused(f"cannot write into {quoted(folder)}")
        return
    except OSError as e:
        raise refused(e.strerror or str(e))
    if stat.S_ISCHR(info.st_mode) or stat.S_ISFIFO(info.st_mode):
        return  # written through: /dev/null, a terminal, a pipe
    if not stat.S_ISREG(info.st_mode):
        raise refused(f"it is {_kind(info.st_mode)} (blurlab's tools write files, character devices and FIFOs)")
    if _through_proc(path):
        raise refused("it leads through /proc to a file a process has open; name the file itself")
    if info.st_mode & 0o222 == 0:
        raise refused(f"it is read-only (mode {info.st_mode & 0o7777:04o})")
    behind = _file_behind(path)
    if not os.access(os.path.dirname(behind) or ".", os.W_OK | os.X_OK):
        raise refused(f"cannot write into {quoted(os.path.dirname(behind) or '.')}")


def write_bytes(path, data, what):
    """`data` into `path` as blurlab writes an output (check_output first): whole or not at all."""
    check_output(path, what)
    try:
        info = os.stat(path)
    except OSError:
        info = None
    try:
        if info is not None and (stat.S_ISCHR(info.st_mode) or stat.S_ISFIFO(info.st_mode)):
            sys.stdout.flush()  # /dev/stdout may be this pipe or terminal: what was printed comes first
            try:
                fd = os.open(path, os.O_WRONLY | os.O_NOCTTY | os.O_NONBLOCK)
            except OSError as e:
                if stat.S_ISFIFO(info.st_mode) and e.errno == 6:  # ENXIO: no reader
                    raise ToolError(f"cannot write {what} {quoted(path)}: no process is reading from it")
                raise
            try:
                os.set_blocking(fd, True)
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view):]
            finally:
                os.close(fd)
            return
        target = _file_behind(path)
        folder = os.path.dirname(target) or "."
        fd, temp = tempfile.mkstemp(dir=folder, prefix=".blurlab-tool-", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.chmod(temp, info.st_mode & 0o7777 if info is not None else 0o666 & ~_umask())
            os.replace(temp, target)
        except BaseException:
            try:
                os.unlink(temp)
            except OSError:
                pass
            raise
    except OSError as e:
        raise ToolError(f"cannot write {what} {quoted(path)}: {e.strerror or e}")


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


PLAIN_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


def check_plain_name(name, what):
    """A file name (or part of one) of letters, digits, dots, dashes and underscores, not starting
    with a dot: it cannot leave the folder it is written into ("../x", "/x"), nor hide there."""
    if name and not PLAIN_NAME.match(name):
        raise ToolError(f"{what} {quoted(name)} is not a plain file name (letters, digits, '.', '-' and '_', "
                        f"not starting with '.'): outputs stay inside the folder asked for", 2)


def output_folder(path, what):
    """A folder to write into: an existing directory, or a new one whose parent is one (made now)."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        parent = os.path.dirname(os.path.normpath(os.fsdecode(path))) or "."
        if not os.path.isdir(parent):
            raise ToolError(f"{what} {quoted(path)}: cannot create it in {quoted(parent)}: not a directory")
        try:
            os.mkdir(path)
        except OSError as e:
            raise ToolError(f"{what} {quoted(path)}: {e.strerror or e}")
        return
    except OSError as e:
        raise ToolError(f"{what} {quoted(path)}: {e.strerror or e}")
    if not stat.S_ISDIR(info.st_mode):
        raise ToolError(f"{what} {quoted(path)}: it is {_kind(info.st_mode)}, not a directory")


class ArgumentParser(argparse.ArgumentParser):
    """argparse with blurlab's one line for a bad option (exit 2) instead of its usage block."""

    def error(self, message):
        raise ToolError(f"{message} (--help lists the options)", 2)


def fail(message, code=1):
    raise ToolError(message, code)


class EscapedStdout(io.TextIOBase):
    """stdout with one_line()'s rule applied to every line, the line breaks kept, as blurlab's
    EscapingStreambuf: a name read from a file (a variant's, a GPU's) is shown, never obeyed."""

    def __init__(self, target):
        super().__init__()
        self.target = target

    def write(self, text):
        self.target.write("\n".join(one_line(line) for line in text.split("\n")))
        return len(text)

    def flush(self):
        self.target.flush()

    def fileno(self):
        return self.target.fileno()

    def reconfigure(self, **settings):  # the encoding of what it writes is the target's
        self.target.reconfigure(**settings)

    @property
    def encoding(self):
        return self.target.encoding


def run_tool(name, main):
    """Runs main() with stdout escaped (EscapedStdout); any failure is one line on stderr, "NAME:
    MESSAGE", and an exit code, never a traceback: a ToolError as it says; a value of the wrong kind
    in an input (KeyError, TypeError, ValueError, ...) as what it is; a reader of stdout gone as exit
    1 without a word more."""
    stdout = sys.stdout
    try:
        sys.stdout = EscapedStdout(stdout)
        main()
        sys.stdout.flush()
        return 0
    except ToolError as e:
        message, code = str(e), e.code
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, ZeroDivisionError, OverflowError) as e:
        message, code = f"an input holds a value of the wrong kind or range ({type(e).__name__}: {e})", 1
    except RecursionError:
        message, code = "an input nests too deep", 1
    except MemoryError:
        message, code = "out of memory", 1
    except BrokenPipeError:
        # Nothing more reaches the reader; python's own flush at exit would say so again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        message, code = "cannot write to standard output: the reader is gone", 1
    except OSError as e:
        message, code = f"{e.strerror or e}" + (f": {quoted(e.filename)}" if e.filename else ""), 1
    except KeyboardInterrupt:
        return 130
    finally:
        sys.stdout = stdout
    try:
        stdout.flush()
    except (OSError, ValueError):
        pass
    line = (f"{name}: {one_line(message)}"[:2000] + "\n").encode("utf-8", "replace")
    try:
        os.write(2, line)
    except OSError:
        pass
    return code
