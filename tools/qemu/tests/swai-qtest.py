#!/usr/bin/python3
"""Smoke-test the swai device in a real QEMU through the qtest protocol.

usage: swai-qtest.py QEMU [PROP=VAL ...]   (e.g. hbm-mb=100 local-mb=30)
No guest and no firmware: config space is programmed through ports
0xcf8/0xcfc, MSI-X vectors are pointed at guest RAM so a message shows up as
a memory write.  Prints TAP; exit status 1 on any failure.
"""
import subprocess, sys
qemu = sys.argv[1]
extra = sys.argv[2:]
p = subprocess.Popen([qemu, '-machine', 'q35', '-accel', 'qtest', '-qtest', 'stdio', '-qtest-log', '/dev/null',
                      '-display', 'none', '-nic', 'none', '-L', '/usr/share/seabios',
                      '-L', '/usr/share/qemu', '-m', '128M',
                      '-device', 'swai,addr=04.0,' + ','.join(extra) if extra else 'swai,addr=04.0'],
                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
import atexit
atexit.register(lambda: p.poll() is None and p.kill())
def cmd(c):
    if p.poll() is not None: raise SystemExit('qemu exited')
    p.stdin.write(c + '\n'); p.stdin.flush()
    while True:
        l = p.stdout.readline()
        if not l: raise SystemExit('qemu died')
        if l.startswith('OK') or l.startswith('FAIL') or l.startswith('ERR'):
            return l.split()
def rd(a, w='l'): return int(cmd('read%s 0x%x' % (w, a))[1], 16)
def wr(a, v, w='l'): cmd('write%s 0x%x 0x%x' % (w, a, v))
DEV = 4
def cfg(reg): return 0x80000000 | (DEV << 11) | (reg & 0xfc)
def cfgr(reg):
    cmd('outl 0xcf8 0x%x' % cfg(reg)); return int(cmd('inl 0xcfc')[1], 16)
def cfgw(reg, v):
    cmd('outl 0xcf8 0x%x' % cfg(reg)); cmd('outl 0xcfc 0x%x' % v)
fails = 0
checks = 0
def check(name, got, exp):
    global fails, checks
    ok = got == exp
    fails += not ok
    checks += 1
    print('%sok %d - %s: got 0x%x expected 0x%x' % ('' if ok else 'not ', checks, name, got, exp))

idr = cfgr(0)
check('vendor/device', idr, 0x5a101234)
check('class/rev', cfgr(8), 0x12000001)
check('int pin', (cfgr(0x3c) >> 8) & 0xff, 0)
# BAR sizing
sizes = {}
for bar in range(6):
    off = 0x10 + 4 * bar
    old = cfgr(off); cfgw(off, 0xffffffff); sizes[bar] = cfgr(off); cfgw(off, old)
print('# BAR probe:', {k: hex(v) for k, v in sizes.items()})
check('BAR0 size 64K', (~(sizes[0] & ~0xf) + 1) & 0xffffffff, 0x10000)
check('BAR2 flags 64-bit prefetch', sizes[2] & 0xf, 0xc)
bar2_size = (~(((sizes[3] << 32) | (sizes[2] & ~0xf))) + 1) & 0xffffffffffffffff
print('# BAR2 size = 0x%x' % bar2_size)
B0, B1, B2 = 0xc0000000, 0xc0010000, 0x800000000
cfgw(0x10, B0); cfgw(0x14, B1); cfgw(0x18, B2 & 0xffffffff); cfgw(0x1c, B2 >> 32)
cfgw(0x04, cfgr(0x04) | 0x6)
# capability list
caps = []
ptr = (cfgr(0x34)) & 0xff
while ptr:
    v = cfgr(ptr); caps.append((ptr, v & 0xff)); ptr = (v >> 8) & 0xff
print('# caps:', [(hex(a), hex(b)) for a, b in caps])
check('PCIe cap at 0x80', dict(caps).get(0x80, 0), 0x10)
msix = [a for a, b in caps if b == 0x11][0]
mctl = cfgr(msix) >> 16
check('MSI-X table size', (mctl & 0x7ff) + 1, 5)
check('MSI-X table BIR', cfgr(msix + 4) & 7, 1)

check('ID', rd(B0 + 0), 0x53574149)
check('VERSION', rd(B0 + 4), 0x10000)
check('CAPS (MMU = bit 4)', rd(B0 + 8), 0x1f)
check('STATUS', rd(B0 + 0xc), 1)
check('NUM_CG', rd(B0 + 0x20), 4)
local0 = rd(B0 + 0x34)
print('# CPES %d LDM %d HBM %d LOCAL %d' % (rd(B0 + 0x24), rd(B0 + 0x28), rd(B0 + 0x30), local0))
check('GLOBAL_BASE_HI', rd(B0 + 0x3c), 0x100)
check('IRQ_STATUS at reset', rd(B0 + 0x80), 1)
wr(B0 + 0x14, 0xcafef00d); check('SCRATCH', rd(B0 + 0x14), 0xcafef00d)
check('unaligned readl', rd(B0 + 0x15), 0)
check('readw', rd(B0 + 0x14, 'w'), 0)
wr(B0 + 0x14, 0x1234, 'w'); check('writew dropped', rd(B0 + 0x14), 0xcafef00d)
check('ERROR after sized accesses', rd(B0 + 0x18), 0)
wr(B0 + 0, 0); check('RO write -> BAD_ACCESS', rd(B0 + 0x18), 4)
wr(B0 + 0x18, 4)
hbm = rd(B0 + 0x30)
wr(B0 + 0x34, hbm + 1); check('bad partition', rd(B0 + 0x18), 2)
wr(B0 + 0x34, min(7, hbm)); check('partition write', rd(B0 + 0x34), min(7, hbm))
wr(B0 + 0x1000 + 0x100 * 2 + 0xc, 1); check('Q2 STATUS', rd(B0 + 0x1218), 3)
# MSI-X: route vector 0 and 3 to guest RAM, enable, raise
cfgw(msix, cfgr(msix) | (1 << 31))
for v, addr in ((0, 0x200000), (3, 0x200010)):
    wr(B1 + 16 * v + 0, addr); wr(B1 + 16 * v + 4, 0); wr(B1 + 16 * v + 8, 0xab00 + v); wr(B1 + 16 * v + 12, 0)
wr(B0 + 0x80, 0xffffffff)
wr(B0 + 0x84, 0x80 | (1 << 10))
wr(B0 + 0x88, 0x80); check('MSI-X vector 0 message', rd(0x200000), 0xab00)
wr(B0 + 0x88, 1 << 10); check('MSI-X vector 3 message', rd(0x200010), 0xab03)
wr(0x200000, 0); wr(B0 + 0x88, 0x80); check('no re-signal while pending', rd(0x200000), 0)
wr(B0 + 0x80, 0x80); wr(B0 + 0x88, 0x80); check('re-signal after clear', rd(0x200000), 0xab00)
# reset via magic
wr(B0 + 0x10, 0x52534554)
st = rd(B0 + 0xc)
print('# STATUS right after RESET write: 0x%x' % st)
for _ in range(100):
    if rd(B0 + 0xc) & 1: break
check('READY after reset', rd(B0 + 0xc), 1)
check('SCRATCH after reset', rd(B0 + 0x14), 0)
check('LOCAL after reset', rd(B0 + 0x34), local0)
check('IRQ_ENABLE after reset', rd(B0 + 0x84), 0)
check('IRQ_STATUS after reset', rd(B0 + 0x80), 1)
wr(B0 + 0x10, 5); check('bad reset', rd(B0 + 0x18), 1)
# HBM aperture: write a word per controller, read it back, and the top byte
H = hbm << 20
for c in range(4):
    wr(B2 + c * H + 0x1000, 0x11110000 + c)
for c in range(4):
    check('HBM ctrl %d' % c, rd(B2 + c * H + 0x1000), 0x11110000 + c)
wr(B2 + 4 * H - 4, 0x5a5a5a5a); check('HBM top word', rd(B2 + 4 * H - 4), 0x5a5a5a5a)
# Device MMU: tables in guest RAM, translated through the probe registers.
check('MMU CONTEXTS', rd(B0 + 0x108), 64)
def wq(a, v): cmd('writeq 0x%x 0x%x' % (a, v))
CT, L0, L1, L2, HP = 0x300000, 0x301000, 0x302000, 0x303000, 0x310000
for t in (CT, L0, L1, L2):
    for i in range(0, 0x1000, 8): wq(t + i, 0)
ASID, VA = 5, (2 << 30) | (3 << 21) | (4 << 12)      # indices 2, 3, 4
top = 4 * H                                           # end of HBM
wq(CT + 16 * ASID, L0 | 1)
wq(L0 + 8 * 2, L1 | 1)
wq(L1 + 8 * 3, L2 | 1)
wq(L2 + 8 * 4, (top - 0x1000) | 3)                    # last HBM page, RW
wq(L2 + 8 * 5, top | 1)                               # beyond HBM
wq(L2 + 8 * 6, HP | 5)                                # host page, RO
wr(B0 + 0x100, CT | 0xfff); wr(B0 + 0x104, 0)
check('MMU CTX_TABLE 4K aligned', rd(B0 + 0x100), CT)
def probe(asid, va, write=0):
    wr(B0 + 0x120, asid); wr(B0 + 0x124, va & 0xffffffff); wr(B0 + 0x128, va >> 32)
    wr(B0 + 0x12c, write)
    for _ in range(100):
        lo = rd(B0 + 0x130)
        if lo & 8: break
    return (rd(B0 + 0x134) << 32) | lo
check('MMU probe HBM page', probe(ASID, VA + 0x123), (top - 0x1000) | 9)
check('MMU probe HBM page, write', probe(ASID, VA, 1), (top - 0x1000) | 9)
check('MMU probe host page', probe(ASID, VA + 0x2000), HP | 0xb)
check('MMU probe host page RO write', probe(ASID, VA + 0x2000, 1), 8 | 4 << 4)
check('MMU probe beyond HBM', probe(ASID, VA + 0x1000), 8 | 5 << 4)
check('MMU probe unmapped VA', probe(ASID, VA + 0x3000), 8 | 3 << 4)
check('MMU probe unmapped L0', probe(ASID, 1 << 30), 8 | 3 << 4)
check('MMU probe VA beyond 39 bits', probe(ASID, VA | 1 << 39), 8 | 2 << 4)
check('MMU probe invalid context', probe(ASID + 1, VA), 8 | 1 << 4)
cfgw(0x04, cfgr(0x04) & ~0x4)                         # bus master off
check('MMU probe without bus master', probe(ASID, VA), 8 | 6 << 4)
cfgw(0x04, cfgr(0x04) | 0x4)
check('MMU FAULT_STATUS after probes', rd(B0 + 0x110), 0)
check('MMU no IRQ from probes', rd(B0 + 0x80) & 4, 0)
wr(B0 + 0x18, 0xffffffff)                             # earlier BAD_RESET
wr(B0 + 0x10c, 1 << 31); check('MMU INVALIDATE accepted', rd(B0 + 0x18), 0)
wr(B0 + 0x10, 0x52534554)
for _ in range(100):
    if rd(B0 + 0xc) & 1: break
check('MMU CTX_TABLE after reset', rd(B0 + 0x100), 0)
check('MMU PROBE_RESULT after reset', rd(B0 + 0x130), 0)
p.terminate(); p.wait(timeout=10)
print('1..%d' % checks)
sys.exit(1 if fails else 0)
