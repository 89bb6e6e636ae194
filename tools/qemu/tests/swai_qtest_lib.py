"""The qtest plumbing the swai QEMU tests share (swai-qtest.py, swai-mmio-fuzz.py).

QEMU runs the swai device under the qtest accelerator: no guest and no firmware.
Config space is programmed through ports 0xcf8/0xcfc; the BARs are placed at
fixed addresses (B0 registers, B1 MSI-X, B2 the HBM window).  A QMP socket
can be asked for, so a test can check the monitor still answers.
"""
import atexit
import json
import os
import socket
import subprocess
import sys
import tempfile
import time

DEV = 4                                     # the device's slot
B0, B1, B2 = 0xc0000000, 0xc0010000, 0x800000000


class Qtest:
    def __init__(self, qemu, props=(), qmp=False, mem='128M', args=()):
        """One swai card at slot DEV with props; args: more QEMU arguments
        (more cards, a fabric) before it."""
        dev = 'swai,addr=04.0' + (',' + ','.join(props) if props else '')
        self.dev = DEV
        args = [qemu, '-machine', 'q35', '-accel', 'qtest', '-qtest', 'stdio',
                '-qtest-log', '/dev/null', '-display', 'none', '-nic', 'none',
                '-L', '/usr/share/seabios', '-L', '/usr/share/qemu', '-m', mem,
                *args, '-device', dev]
        self.qmp_path = None
        if qmp:
            self.qmp_path = os.path.join(tempfile.mkdtemp(), 'qmp.sock')
            args += ['-qmp', 'unix:%s,server=on,wait=off' % self.qmp_path]
        self.p = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        atexit.register(lambda: self.p.poll() is None and self.p.kill())

    def cmd(self, c):
        if self.p.poll() is not None:
            raise SystemExit('qemu exited with status %d' % self.p.returncode)
        self.p.stdin.write(c + '\n')
        self.p.stdin.flush()
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit('qemu died (status %s)' % self.p.wait())
            if line.startswith(('OK', 'FAIL', 'ERR')):
                return line.split()

    def rd(self, a, w='l'):
        return int(self.cmd('read%s 0x%x' % (w, a))[1], 16)

    def wr(self, a, v, w='l'):
        self.cmd('write%s 0x%x 0x%x' % (w, a, v))

    def put(self, a, data):
        """Write bytes into guest memory."""
        self.cmd('write 0x%x 0x%x 0x%s' % (a, len(data), data.hex()))

    def _cfg(self, reg):
        return 0x80000000 | (self.dev << 11) | (reg & 0xfc)

    def cfgr(self, reg):
        self.cmd('outl 0xcf8 0x%x' % self._cfg(reg))
        return int(self.cmd('inl 0xcfc')[1], 16)

    def cfgw(self, reg, v):
        self.cmd('outl 0xcf8 0x%x' % self._cfg(reg))
        self.cmd('outl 0xcfc 0x%x' % v)

    def bar_sizes(self):
        sizes = {}
        for bar in range(6):
            off = 0x10 + 4 * bar
            old = self.cfgr(off)
            self.cfgw(off, 0xffffffff)
            sizes[bar] = self.cfgr(off)
            self.cfgw(off, old)
        return sizes

    def map_bars(self, b0=B0, b1=B1, b2=B2):
        """BARs of the card at slot self.dev at b0, b1, b2; memory decoding
        and bus mastering on."""
        self.cfgw(0x10, b0)
        self.cfgw(0x14, b1)
        self.cfgw(0x18, b2 & 0xffffffff)
        self.cfgw(0x1c, b2 >> 32)
        self.cfgw(0x04, self.cfgr(0x04) | 0x6)

    def caps(self):
        out, ptr = [], self.cfgr(0x34) & 0xff
        while ptr:
            v = self.cfgr(ptr)
            out.append((ptr, v & 0xff))
            ptr = (v >> 8) & 0xff
        return out

    def qmp(self, command):
        """One QMP command on a fresh connection; its 'return', or raises."""
        s = socket.socket(socket.AF_UNIX)
        s.settimeout(10)
        for _ in range(50):
            try:
                s.connect(self.qmp_path)
                break
            except OSError:
                time.sleep(0.1)
        f = s.makefile('rw')
        json.loads(f.readline())                        # the greeting
        for c in ({'execute': 'qmp_capabilities'}, {'execute': command}):
            f.write(json.dumps(c) + '\n')
            f.flush()
            while True:
                r = json.loads(f.readline())
                if 'return' in r or 'error' in r:
                    break
        s.close()
        if 'error' in r:
            raise RuntimeError(r['error'])
        return r['return']


class Tap:
    """TAP lines for the qtest scripts: check() each, done() the plan and exit status."""

    def __init__(self):
        self.fails = self.checks = 0

    def check(self, name, got, exp):
        ok = got == exp
        self.fails += not ok
        self.checks += 1
        mark = '' if ok else 'not '
        if isinstance(got, int) and isinstance(exp, int) and not isinstance(got, bool):
            print('%sok %d - %s: got 0x%x expected 0x%x' % (mark, self.checks, name, got, exp))
        else:
            print('%sok %d - %s%s' % (mark, self.checks, name,
                                      '' if ok else ': got %r expected %r' % (got, exp)))

    def done(self):
        print('1..%d' % self.checks)
        sys.exit(1 if self.fails else 0)
