#!/usr/bin/python3
"""Two swai cards with NIC ports on one QEMU network hub, through qtest.

usage: swai-nic-qtest.py QEMU
Card 0 (slot 4, node 0) and card 1 (slot 5, node 1) are joined by a QEMU
hub (-netdev hubport).  Checks the NIC registers, a two-rank AllReduce of
seed 001's descriptors (leaf and root) whose results land in host memory
through each card's MMU, modeled times, posts the card refuses, a packet
with the wrong key, 200 AllReduces with 20 % of the frames dropped and 20 %
reordered (all right, resends counted), and the configurations QEMU
refuses.  Prints TAP; exit status 1 on any failure.
"""
import os
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from swai_qtest_lib import Tap, Qtest, B0, B1, B2

qemu = sys.argv[1]
PB0, PB1, PB2 = 0xc0100000, 0xc0110000, 0xa00000000     # card 1's BARs


tap = Tap()
check = tap.check


# uapi/drm/swai_nic.h and kernel/swai_regs.h
NIC = 0x400
NODE, STATUS, VPORT, ASID, KEY, CTRL, TLO, THI, POST, PSTAT, COUNTER, CQN, POP, CQE, CQI, \
    CQTLO, CQTHI, TXF, RXF, RES = [NIC + 4 * i for i in range(20)]
DESC = 0x500
K_REDUCE, K_BCAST, K_PUT, K_WRITE = 1, 2, 3, 5
F_CP, F_SWPFLAG, F_SWPMP, F_COMPLETE = 1 << 4, 1 << 5, 1 << 6, 1 << 7
NONE = 0xffff


def desc(kind, flags, vport, src, dst=NONE, branch=0, child=0, cpcnt=0, key=0, addr=0,
         data=(), rtype=0, dtype=0, width=8):
    b = struct.pack('<IBBBBBBBBHHIHHQ', kind | flags, vport, vport, branch, child, rtype,
                    dtype, width, len(data), src, dst, cpcnt, 0, key, addr)
    b += bytes(48)                                          # locations
    b += b''.join(struct.pack('<d', x) for x in data).ljust(48, b'\0')
    assert len(b) == 128
    return b


def write_desc(vport, src, dst, key, src_va, dst_va, n):
    """RDMA WRITE of n bytes, counted at the destination at its end (CP)."""
    b = struct.pack('<IBBBBBBBBHHIHHQ', K_WRITE | F_CP, vport, vport, 0, 0, 0, 0, 0, 0, src,
                    dst, 0, 0, key, dst_va)
    b += struct.pack('<QI', src_va, n).ljust(48, b'\0') + bytes(48)
    assert len(b) == 128
    return b


def write_test(q, name):
    """4 KiB of host memory through card 0's MMU to card 1's, over the NICs."""
    pat = bytes((i * 37 + 11) & 0xff for i in range(4096))
    q.put(R0, pat)
    for i in range(0, 4096, 8):
        wq(q, R1 + i, 0)
    open_port(q, B0, 6, 0x66)
    open_port(q, PB0, 6, 0x66)
    check('%s: WRITE posted' % name,
          post(q, B0, write_desc(6, 0, 1, 0x66, 0x1000, 0x2000, 4096), 100), 0)
    c = drain(q, B0, 6, 1)
    check('%s: WRITE completes OK at the sender' % name, [x[0] for x in c], [0])
    end = time.time() + 10
    while time.time() < end and (q.wr(PB0 + VPORT, 6), q.rd(PB0 + COUNTER))[1] < 1:
        time.sleep(0.005)
    got = b''.join(struct.pack('<Q', rq(q, R1 + i)) for i in range(0, 4096, 8))
    check('%s: the 4096 bytes are in card 1\'s memory' % name, got == pat, True)
    check('%s: counted once at the destination' % name,
          (q.wr(PB0 + VPORT, 6), q.rd(PB0 + COUNTER))[1], 1)
    # 0.1 us posted + 0.2 us descriptor, then 4 packets of 1214 B at 25 GB/s
    # (48.56 ns each): 494.24 ns, a completion's ns rounded up.
    if c:
        check('%s: modeled end of the WRITE, 495 ns' % name, c[0][3], 495)


def args(drop=0, reorder=0):
    extra = ',nic-drop-pm=%d,nic-reorder-pm=%d' % (drop, reorder)
    return (('netdev=h0', 'nic-node=0' + extra),
            ('-netdev', 'hubport,id=h0,hubid=0', '-netdev', 'hubport,id=h1,hubid=0',
             '-device', 'swai,addr=05.0,netdev=h1,nic-node=1' + extra))


def boot(drop=0, reorder=0):
    props, extra = args(drop, reorder)
    q = Qtest(qemu, props, args=extra)
    q.map_bars()
    q.dev = 5
    q.map_bars(PB0, PB1, PB2)
    q.dev = 4
    return q


def wq(q, a, v):
    q.cmd('writeq 0x%x 0x%x' % (a, v))


def rq(q, a):
    return int(q.cmd('readq 0x%x' % a)[1], 16)


# Page tables in host memory, shared by both cards' MMUs: context 7 maps
# VA 0x1000 -> R0 (card 0's result) and VA 0x2000 -> R1 (card 1's).
CT, T0, T1, T2, R0, R1 = 0x320000, 0x321000, 0x322000, 0x323000, 0x330000, 0x331000
A = 7


def mmu(q):
    for t in (CT, T0, T1, T2, R0, R1):
        for i in range(0, 0x1000, 8):
            wq(q, t + i, 0)
    wq(q, CT + 16 * A, T0 | 1)
    wq(q, T0, T1 | 1)
    wq(q, T1, T2 | 1)
    wq(q, T2 + 8 * 1, R0 | 7)                  # VALID | WRITE | HOST
    wq(q, T2 + 8 * 2, R1 | 7)
    for b in (B0, PB0):
        q.wr(b + 0x100, CT)
        q.wr(b + 0x104, 0)


def open_port(q, b, port, key):
    q.wr(b + VPORT, port)
    q.wr(b + ASID, A)
    q.wr(b + KEY, key)


def post(q, b, d, t_ns=0):
    for i in range(0, 128, 4):
        q.wr(b + DESC + i, struct.unpack_from('<I', d, i)[0])
    q.wr(b + TLO, t_ns & 0xffffffff)
    q.wr(b + THI, t_ns >> 32)
    q.wr(b + POST, 1)
    return q.rd(b + PSTAT)


def drain(q, b, port, want, timeout=10.0):
    """The port's completions: (status, kind, index, time_ns) each."""
    q.wr(b + VPORT, port)
    got, end = [], time.time() + timeout
    while len(got) < want and time.time() < end:
        if q.rd(b + CQN):
            q.wr(b + POP, 1)
            e = q.rd(b + CQE)
            got.append((e & 0xff, e >> 8 & 0xf, q.rd(b + CQI),
                        q.rd(b + CQTLO) | q.rd(b + CQTHI) << 32))
        else:
            time.sleep(0.002)
    return got


def allreduce(q, port, key, x0, x1, t_ns=1000):
    """Rank 0 (node 0) is the root, rank 1 (node 1) its leaf."""
    s1 = post(q, PB0, desc(K_REDUCE, F_CP | F_SWPMP, port, 1, dst=0, key=key, data=x1), t_ns)
    s2 = post(q, PB0, desc(K_BCAST, F_SWPFLAG | F_COMPLETE, port, 1, cpcnt=1, addr=0x2000,
                           data=(0,) * len(x1)), t_ns)
    s3 = post(q, B0, desc(K_REDUCE, 0, port, 0, branch=1, cpcnt=1, data=x0), t_ns)
    s4 = post(q, B0, desc(K_BCAST, F_CP | F_SWPMP | F_SWPFLAG | F_COMPLETE, port, 0, dst=1,
                          key=key, addr=0x1000, data=(0,) * len(x0)), t_ns)
    return (s1, s2, s3, s4), drain(q, B0, port, 2), drain(q, PB0, port, 2)


def result(q, addr, n):
    return [struct.unpack('<d', struct.pack('<Q', rq(q, addr + 8 * i)))[0] for i in range(n)]


# --- registers ---
q = boot()
mmu(q)
check('CAPS has NIC (bit 10)', q.rd(B0 + 8) >> 10 & 1, 1)
check('card 0 NIC_NODE', q.rd(B0 + NODE), 0)
check('card 1 NIC_NODE', q.rd(PB0 + NODE), 1)
check('NIC_STATUS LINK', q.rd(B0 + STATUS), 1)
check('a closed port refuses a post', post(q, B0, desc(K_REDUCE, 0, 3, 0)), 3)
open_port(q, B0, 3, 0x1234)
open_port(q, PB0, 3, 0x1234)
check('PORT_ASID reads back', q.rd(B0 + ASID), A)
check('PORT_KEY reads back', q.rd(B0 + KEY), 0x1234)
check('a descriptor that breaks a rule: INVALID',
      post(q, B0, desc(K_REDUCE, 0, 3, 0, width=3)), 1)
check('a descriptor for another port: INVALID', post(q, B0, desc(K_REDUCE, 0, 4, 0)), 1)
check('a descriptor from another node: INVALID', post(q, B0, desc(K_REDUCE, 0, 3, 1)), 1)
check('no ERROR from the NIC registers', q.rd(B0 + 0x18), 0)

# --- an AllReduce of two ranks ---
st, c0, c1 = allreduce(q, 3, 0x1234, (1.5, -2.0, 1e300), (10.0, 0.25, 1e300))
check('four posts taken', st, (0, 0, 0, 0))
check('root: two completions, OK', [(s, k) for s, k, _, _ in c0], [(0, K_REDUCE), (0, K_BCAST)])
check('leaf: two completions, OK', [(s, k) for s, k, _, _ in c1], [(0, K_REDUCE), (0, K_BCAST)])
want = [11.5, -1.75, 2e300]
check('root has the sum in host memory', result(q, R0, 3), want)
check('leaf has the sum in host memory', result(q, R1, 3), want)
# Leaf REDUCE: posted 1 us, + 0.2 us descriptor; its packet's last byte
# leaves after 190 B at 25 GB/s (7.6 ns) + 2.6 us: the root combines at
# 3.8076 + 0.2 + 0.03 (3 elements); the result reaches the leaf 2.6 us and
# 7.6 ns after the root's BCAST (+0.2), and the leaf's BCAST takes 0.2 us.
check('modeled: the root reduces at 4038 ns', c0[0][3], 4038)
check('modeled: the leaf completes at 7046 ns', c1[1][3], 7046)
check('descriptor indices count up', [c[2] for c in c0], [0, 1])
check('the port counted the leaf packet', (q.wr(B0 + VPORT, 3), q.rd(B0 + COUNTER))[1], 1)

# --- a packet without the port's key is refused at the receiver ---
open_port(q, B0, 5, 0x4444)
open_port(q, PB0, 5, 0x5555)
post(q, PB0, desc(K_PUT, F_CP, 5, 1, dst=0, key=0x9999, addr=0x1000, data=(7.0,)))
c = drain(q, B0, 5, 1, timeout=3)
check('wrong key: E_KEY at the receiver', [s for s, _, _, _ in c], [8])
check('wrong key: nothing written', result(q, R0, 1), [11.5])
post(q, PB0, desc(K_PUT, F_CP, 5, 1, dst=0, key=0x4444, addr=0x1000, data=(7.0,)))
drain(q, PB0, 5, 1)
time.sleep(0.05)
check('right key: the PUT lands', result(q, R0, 1), [7.0])
check('right key: the port counted it', (q.wr(B0 + VPORT, 5), q.rd(B0 + COUNTER))[1], 1)
q.wr(B0 + VPORT, 5)
q.wr(B0 + CTRL, 1)
check('PORT_CTRL RESET clears the counter', q.rd(B0 + COUNTER), 0)
write_test(q, 'lossless')
q.p.terminate()
check('QEMU exits cleanly', q.p.wait(timeout=10), 0)

# --- the same over a network that drops and reorders frames ---
q = boot(drop=200, reorder=200)
mmu(q)
open_port(q, B0, 2, 7)
open_port(q, PB0, 2, 7)
bad = 0
t0 = time.time()
for i in range(200):
    st, c0, c1 = allreduce(q, 2, 7, (float(i), 1.0), (0.5, float(-i)), t_ns=1000 + 10000 * i)
    ok = (st == (0, 0, 0, 0) and len(c0) == 2 and len(c1) == 2 and
          all(s == 0 for s, _, _, _ in c0 + c1) and
          result(q, R0, 2) == [i + 0.5, 1.0 - i] and result(q, R1, 2) == [i + 0.5, 1.0 - i])
    bad += not ok
    if not ok:
        print('# round %d: %r %r %r' % (i, st, c0, c1))
        break
check('200 AllReduces through 20 %% loss and 20 %% reordering: all right', bad, 0)
write_test(q, '20 % loss')
resends = q.rd(B0 + RES) + q.rd(PB0 + RES)
check('frames were resent (%d)' % resends, resends > 0, True)
print('# 200 rounds in %.1f s, %d resends, %d + %d frames sent' %
      (time.time() - t0, resends, q.rd(B0 + TXF), q.rd(PB0 + TXF)))
check('modeled times do not see the losses: the 200th leaf ends at 1997036 ns',
      c1[1][3] if len(c1) > 1 else 0, 1000 + 10000 * 199 + 6036)  # 2 elements: 10 ns less ALU
q.p.terminate()
check('QEMU exits cleanly', q.p.wait(timeout=10), 0)

# --- configurations QEMU refuses, each with a message that says why ---
base = [qemu, '-machine', 'q35', '-accel', 'qtest', '-qtest', 'null', '-display', 'none',
        '-nodefaults', '-L', '/usr/share/seabios', '-L', '/usr/share/qemu', '-S']
hub = ['-netdev', 'hubport,id=h,hubid=0']
for extra, msg in [
        (hub + ['-device', 'swai,netdev=h'], 'go together'),
        (['-device', 'swai,nic-node=3'], 'go together'),
        (hub + ['-device', 'swai,netdev=h,nic-node=5000'], 'go together'),
        (hub + ['-device', 'swai,netdev=h,nic-node=1,nic-drop-pm=1001'], 'per mille')]:
    r = subprocess.run(base + extra, capture_output=True, text=True, timeout=30)
    check('refused: %s' % extra[-1], (r.returncode != 0, msg in r.stderr), (True, True))
    if msg not in r.stderr:
        print('# stderr: %s' % r.stderr.strip())

tap.done()
