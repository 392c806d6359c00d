# The board's flash for vfs.VfsLfs2 under the board-like MicroPython (tests/mp_app.py, the
# whole app; host_tools/bench_mp.py, the allocation figures): a block device kept in a host
# file, outside the heap as a board's flash is, that allocates nothing (as rp2.Flash, in C).

_FF = b"\xff" * 256


class FileFlash:
    # The board's flash for vfs.VfsLfs2 (as rp2.Flash is), kept in a host file, outside the
    # heap as a board's flash is: 4,096-byte blocks, an erase sets one to 0xFF.
    def __init__(self, path, blocks):
        self.n = blocks
        try:
            self.f = open(path, "r+b")
        except OSError:
            with open(path, "wb") as f:
                for _ in range(blocks * 16):
                    f.write(_FF)
            self.f = open(path, "r+b")

    def readblocks(self, n, buf, off=0):
        self.f.seek(n * 4096 + off)
        self.f.readinto(buf)  # pyright: ignore[reportAttributeAccessIssue]

    def writeblocks(self, n, buf, off=0):
        self.f.seek(n * 4096 + off)
        self.f.write(buf)

    def ioctl(self, op, arg):
        if op == 4:  # block count
            return self.n
        if op == 5:  # block size
            return 4096
        if op == 6:  # erase block arg
            self.f.seek(arg * 4096)
            for _ in range(16):
                self.f.write(_FF)
        return 0
