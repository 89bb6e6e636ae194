#!/usr/bin/python3
"""Smoke-test the swai device in a real QEMU through the qtest protocol.

usage: swai-qtest.py QEMU [PROP=VAL ...]   (e.g. hbm-mb=100 local-mb=30)
No guest and no firmware: config space is programmed through ports
0xcf8/0xcfc, MSI-X vectors are pointed at guest RAM so a message shows up as
a memory write.  Prints TAP; exit status 1 on any failure.
"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from swai_qtest_lib import Qtest, B0, B1, B2
qemu = sys.argv[1]
extra = sys.argv[2:]
q = Qtest(qemu, extra)
cmd, rd, wr, cfgr, cfgw = q.cmd, q.rd, q.wr, q.cfgr, q.cfgw
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
sizes = q.bar_sizes()
print('# BAR probe:', {k: hex(v) for k, v in sizes.items()})
check('BAR0 size 64K', (~(sizes[0] & ~0xf) + 1) & 0xffffffff, 0x10000)
check('BAR2 flags 64-bit prefetch', sizes[2] & 0xf, 0xc)
bar2_size = (~(((sizes[3] << 32) | (sizes[2] & ~0xf))) + 1) & 0xffffffffffffffff
print('# BAR2 size = 0x%x' % bar2_size)
q.map_bars()
# capability list
caps = q.caps()
print('# caps:', [(hex(a), hex(b)) for a, b in caps])
check('PCIe cap at 0x80', dict(caps).get(0x80, 0), 0x10)
msix = [a for a, b in caps if b == 0x11][0]
mctl = cfgr(msix) >> 16
check('MSI-X table size', (mctl & 0x7ff) + 1, 5)
check('MSI-X table BIR', cfgr(msix + 4) & 7, 1)

check('ID', rd(B0 + 0), 0x53574149)
check('VERSION', rd(B0 + 4), 0x10000)
check('CAPS (QUEUES, TIMING, PEER, COMPUTE, FABRIC, NIC = bits 5..10)', rd(B0 + 8), 0x7ff)
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

# --- A job end to end: ring, program and completion in guest RAM ---
import struct, time
def rq(a): return int(cmd('readq 0x%x' % a)[1], 16)
def put(a, data):
    data = data + bytes(-len(data) % 8)
    for i in range(0, len(data), 8): wq(a + i, struct.unpack_from('<Q', data, i)[0])
def insn(op, flags=0, rows=0, ln=0, dst=0, src=0, ds=0, ss=0, dtype=0, rop=0):
    return struct.pack('<BBBBIQQQQQ', op, flags, dtype, rop, rows, ln, dst, src, ds, ss)
T = {0x200: 100000, 0x204: 100000, 0x208: 25000, 0x20c: 1000000, 0x210: 25000,
     0x214: 15000, 0x218: 5000, 0x21c: 1000, 0x220: 1000, 0x224: 800000}
props = dict(a.split('=') for a in extra)
names = {0x200: 'ring-mbps', 0x204: 'local-mbps', 0x208: 'pcie-mbps', 0x20c: 'ldm-mbps',
         0x210: 't-launch-ns', 0x214: 't-sync-ns', 0x218: 't-step-ns', 0x21c: 't-barrier-ns',
         0x220: 't-dma-ns', 0x224: 'ring-total-mbps'}
for off, dflt in T.items():
    T[off] = int(props.get(names[off], dflt))
    check('timing register %s' % names[off], rd(B0 + off), T[off])
check('card CLOCK after reset', rd(B0 + 0x228) | rd(B0 + 0x22c) << 32, 0)
CT2, T0, T1, T2 = 0x320000, 0x321000, 0x322000, 0x323000
PROG, SRC, SEM, RING, COMPL = 0x340000, 0x341000, 0x342000, 0x350000, 0x351000
for t in (CT2, T0, T1, T2, SEM, COMPL):
    for i in range(0, 0x1000, 8): wq(t + i, 0)
local = rd(B0 + 0x34) << 20
gphys = H + local                                     # controller 1, first Cross page
A = 7
wq(CT2 + 16 * A, T0 | 1); wq(T0, T1 | 1); wq(T1, T2 | 1)
wq(T2 + 8 * 1, PROG | 5)                              # VA 0x1000: program, host RO
wq(T2 + 8 * 2, SRC | 5)                               # VA 0x2000: source, host RO
wq(T2 + 8 * 3, gphys | 3)                             # VA 0x3000: Global-HBM, RW
wq(T2 + 8 * 4, SEM | 7)                               # VA 0x4000: host RW
wq(T2 + 8 * 5, 0x1000 | 3)                            # VA 0x5000: CG0 Local, RW
wr(B0 + 0x100, CT2); wr(B0 + 0x104, 0)
src = bytes((i * 7 + 3) & 0xff for i in range(4096))
put(SRC, src)
prog = (insn(4, ln=300, dst=0x3008, src=0x2005) +           # COPY host -> Global
        insn(2, ln=64, dst=0, src=0x2000) +                  # DMA_GET host -> LDM
        insn(3, ln=64, dst=0x5000, src=0) +                  # DMA_PUT LDM -> Local
        insn(9, dst=0x4000, src=0x77) +                      # FENCE
        insn(10, dst=0x4008) +                               # TIMESTAMP
        insn(1))                                             # END
put(PROG, prog)
put(RING, struct.pack('<QIIQIIQQQQ', 42, A, 0, 0x1000, len(prog), 0, 0, COMPL, 0, 0))
for i in range(0, 0x1000, 8): wq(COMPL + i, 0)
wr(B1 + 16 * 1 + 0, 0x200020); wr(B1 + 16 * 1 + 4, 0); wr(B1 + 16 * 1 + 8, 0xab01); wr(B1 + 16 * 1 + 12, 0)
wr(0x200020, 0)
wr(B0 + 0x80, 0xffffffff); wr(B0 + 0x84, 1 << 8)
Q0 = B0 + 0x1000
wr(Q0 + 0x0, RING); wr(Q0 + 0x4, 0); wr(Q0 + 0x8, 4); wr(Q0 + 0xc, 1)
wr(Q0 + 0x14, 1)                                      # doorbell
for _ in range(2000):
    if rd(Q0 + 0x20) == 42: break
    time.sleep(0.001)
check('Q0 COMPLETED', rd(Q0 + 0x20) | rd(Q0 + 0x24) << 32, 42)
check('Q0 HEAD', rd(Q0 + 0x10), 1)
check('Q0 STATUS enabled+idle', rd(Q0 + 0x18), 3)
check('Q0 JOBS', rd(Q0 + 0x30), 1)
check('Q0 FENCES', rd(Q0 + 0x34), 1)
got = b''.join(struct.pack('<Q', rq(B2 + gphys + i)) for i in range(0, 312, 8))
check('COPY host -> Global data', got[8:308] == src[5:305], True)
check('COPY left bytes before alone', got[:8] == bytes(8), True)
got = b''.join(struct.pack('<Q', rq(B2 + 0x1000 + i)) for i in range(0, 64, 8))
check('DMA_GET + DMA_PUT host -> LDM -> Local', got == src[:64], True)
check('FENCE value', rq(SEM), 0x77)
check('MSI-X vector 1 (queue 0)', rd(0x200020), 0xab01)
check('IRQ_STATUS QUEUE(0)', rd(B0 + 0x80) & 0xf00, 0x100)
# Modeled time, integer ps: a chunk costs ceil(bytes * 10^6 / MB/s).
def ps(n, mbps): return -(-n * 10**6 // mbps)
t = T[0x210] * 1000
t += T[0x218] * 1000 + ps(300, min(T[0x208], T[0x200]))
t += T[0x220] * 1000 + ps(64, T[0x208])
t += T[0x220] * 1000 + ps(64, T[0x204])
c = [rq(COMPL + i) for i in range(0, 64, 8)]
check('completion seqno', c[0], 42)
check('completion status', c[1] & 0xffffffff, 0)
check('completion start_ns', c[3], T[0x210])
check('completion end_ns (whole ns, rounded up)', c[4], -(-t // 1000))
print('# wall ns of the job: %d' % c[5])
check('completion bytes', c[6], 300 + 64 + 64)
check('completion insns', c[7] & 0xffffffff, 6)
check('TIMESTAMP = modeled ns', rq(SEM + 8), t // 1000)
check('Q0 CLOCK', rd(Q0 + 0x28), -(-t // 1000))
check('card CLOCK', rd(B0 + 0x228), -(-t // 1000))
# A faulting job: unmapped VA -> SWAI_JOB_ERR_MMU, then queue reset of a hang.
wr(B0 + 0x110, 1)
put(PROG, insn(2, ln=8, dst=0, src=0x9000) + insn(1))
put(RING + 64, struct.pack('<QIIQIIQQQQ', 43, A, 0, 0x1000, 96, 0, 0, COMPL + 64, 0, 0))
wr(Q0 + 0x14, 2)
for _ in range(2000):
    if rd(Q0 + 0x20) == 43: break
    time.sleep(0.001)
check('faulting job completed', rd(Q0 + 0x20), 43)
check('faulting job status MMU', rq(COMPL + 72) & 0xffffffff, 3)
check('faulting job fault_va', rq(COMPL + 80), 0x9000)
check('MMU_FAULT latched', rd(B0 + 0x110) & 0xff, 0x31)
put(RING + 128, struct.pack('<QIIQIIQQQQ', 44, A, 1, 0x1000, 96, 0, 0, COMPL + 128, 0, 0))
wr(Q0 + 0x14, 3)
time.sleep(0.05)
check('hung job not completed', rd(Q0 + 0x20), 43)
check('hung queue not idle', rd(Q0 + 0x18) & 2, 0)
wr(Q0 + 0xc, 3)                                       # RESET | ENABLE
for _ in range(2000):
    if not rd(Q0 + 0xc) & 2: break
    time.sleep(0.001)
check('queue reset done, ENABLE kept', rd(Q0 + 0xc), 1)
check('hung job completed by reset', rd(Q0 + 0x20), 44)
check('hung job status RESET', rq(COMPL + 136) & 0xffffffff, 4)
check('queue idle after reset', rd(Q0 + 0x18), 3)
# --- Compute: a 4x4x4 f32 GEMM end to end through the host's BLAS ---
check('CAPS COMPUTE', rd(B0 + 0x08) >> 8 & 1, 1)
check('f32-gflops register', rd(B0 + 0x230), int(props.get('f32-gflops', 2048)))
check('bf16-gflops register', rd(B0 + 0x234), int(props.get('bf16-gflops', 4096)))
ga = [float(i + 1) for i in range(16)]
gb = [float((i * 3) % 7 - 3) for i in range(16)]
put(SRC, struct.pack('<16f', *ga) + struct.pack('<16f', *gb))
gemm = struct.pack('<BBBB11I', 0x0c, 0, 0, 0, 4, 4, 4, 128, 4, 0, 4, 64, 4, 0x3f800000, 0)
prog = (insn(2, ln=64, dst=0, src=0x2000) + insn(2, ln=64, dst=64, src=0x2040) + gemm +
        insn(3, ln=64, dst=0x5000, src=128) + insn(1))
put(PROG, prog)
put(RING + 192, struct.pack('<QIIQIIQQQQ', 45, A, 0, 0x1000, len(prog), 0, 0, COMPL + 192, 0, 0))
wr(Q0 + 0x14, 0)
for _ in range(2000):
    if rd(Q0 + 0x20) == 45: break
    time.sleep(0.001)
check('GEMM job completed', rd(Q0 + 0x20), 45)
check('GEMM job status', rq(COMPL + 200) & 0xffffffff, 0)
got = struct.unpack('<16f', b''.join(struct.pack('<Q', rq(B2 + 0x1000 + i)) for i in range(0, 64, 8)))
want = [sum(ga[4 * i + k] * gb[4 * k + j] for k in range(4)) for i in range(4) for j in range(4)]
check('GEMM result', list(got) == want, True)
# 2 GETs from host, the GEMM (max of 128 FLOPs and 192 LDM bytes), a PUT to Local.
t = 3 * T[0x220] * 1000 + 2 * ps(64, T[0x208]) + max(-(-128 * 1000 // 2048), ps(192, T[0x20c]))
t += ps(64, T[0x204])
check('GEMM job modeled ns', rq(COMPL + 192 + 32) - rq(COMPL + 192 + 24), -(-t // 1000))
q.p.terminate(); q.p.wait(timeout=10)
print('1..%d' % checks)
sys.exit(1 if fails else 0)
