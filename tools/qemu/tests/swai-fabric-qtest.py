#!/usr/bin/python3
"""Two swai cards on a fabric in a real QEMU, through the qtest protocol.

usage: swai-fabric-qtest.py QEMU TOPOLOGY_DIR
Card 0 (slot 4) and card 3 (slot 5) of the mesh8 topology join one
swai-fabric device.  Checks their fabric registers, that a job on card 0
copies host bytes into card 3's HBM through a SWAI_PTE_FABRIC page (and
reads them back), that a page of an absent card faults BAD_TARGET, and
that QEMU refuses every bad fabric configuration with a clear message.
Prints TAP; exit status 1 on any failure.
"""
import os
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from swai_qtest_lib import Tap, Qtest, B0, B1, B2

qemu, topodir = sys.argv[1], sys.argv[2]
mesh8 = os.path.join(topodir, 'mesh8.json')
PB0, PB1, PB2 = 0xc0100000, 0xc0110000, 0xa00000000     # card 3's BARs
q = Qtest(qemu, ('fabric=fab0', 'fabric-card=0'),
          args=('-device', 'swai-fabric,id=fab0,topology=' + mesh8,
                '-device', 'swai,addr=05.0,fabric=fab0,fabric-card=3'))
cmd, rd, wr = q.cmd, q.rd, q.wr


tap = Tap()
check = tap.check


def wq(a, v):
    cmd('writeq 0x%x 0x%x' % (a, v))


def rq(a):
    return int(cmd('readq 0x%x' % a)[1], 16)


def put(a, data):
    data = data + bytes(-len(data) % 8)
    for i in range(0, len(data), 8):
        wq(a + i, struct.unpack_from('<Q', data, i)[0])


def insn(op, ln=0, dst=0, src=0, flags=0):
    return struct.pack('<BBBBIQQQQQ', op, flags, 0, 0, 0, ln, dst, src, 0, 0)


q.map_bars()
q.dev = 5
q.map_bars(PB0, PB1, PB2)
q.dev = 4

# --- registers: who is who, the route between them ---
FAB = 0x300
check('card 0 CAPS has FABRIC', rd(B0 + 8) >> 9 & 1, 1)
check('card 0 FABRIC_ID', rd(B0 + FAB), 0)
check('card 3 FABRIC_ID', rd(PB0 + FAB), 3)
check('FABRIC_CARDS (mesh8)', rd(B0 + FAB + 4), 8)
check('one FABRIC_TAG', rd(B0 + FAB + 8) == rd(PB0 + FAB + 8) != 0, True)
wr(B0 + FAB + 0xc, 3)
check('route to card 3: present, 1 hop', rd(B0 + FAB + 0x10), 0x103)
check('route to card 3: 28000 MB/s', rd(B0 + FAB + 0x14), 28000)
check('route to card 3: 1000 ns', rd(B0 + FAB + 0x18), 1000)
wr(B0 + FAB + 0xc, 5)
check('route to card 5: not present', rd(B0 + FAB + 0x10), 0x101)
check('no ERROR from the fabric registers', rd(B0 + 0x18), 0)

# --- a job on card 0 writes card 3's HBM and reads it back ---
CT, T0, T1, T2 = 0x320000, 0x321000, 0x322000, 0x323000
PROG, SRC, BACK, RING, COMPL = 0x340000, 0x341000, 0x342000, 0x350000, 0x351000
for t in (CT, T0, T1, T2, BACK, COMPL):
    for i in range(0, 0x1000, 8):
        wq(t + i, 0)
PTE_FABRIC, CARD = 1 << 3, lambda c: c << 52
A = 7
wq(CT + 16 * A, T0 | 1)
wq(T0, T1 | 1)
wq(T1, T2 | 1)
wq(T2 + 8 * 1, PROG | 5)                                  # VA 0x1000: program
wq(T2 + 8 * 2, SRC | 5)                                   # VA 0x2000: source
wq(T2 + 8 * 3, 0x5000 | PTE_FABRIC | CARD(3) | 3)         # VA 0x3000: card 3
wq(T2 + 8 * 4, BACK | 7)                                  # VA 0x4000: host RW
wq(T2 + 8 * 5, 0x5000 | PTE_FABRIC | CARD(5) | 3)         # VA 0x5000: card 5
wr(B0 + 0x100, CT)
wr(B0 + 0x104, 0)
wr(B0 + 0x120, A)
wr(B0 + 0x124, 0x3000)
wr(B0 + 0x128, 0)
wr(B0 + 0x12c, 1)
for _ in range(100):
    lo = rd(B0 + 0x130)
    if lo & 8:
        break
check('MMU probe of a fabric page: OK | FABRIC', lo, 0x5000 | 0x8 | 0x4 | 0x1)
src = bytes((i * 13 + 1) & 0xff for i in range(4096))
put(SRC, src)


def job(seq, prog):
    put(PROG, prog)
    put(RING + 64 * (seq - 1), struct.pack('<QIIQIIQQQQ', seq, A, 0, 0x1000, len(prog), 0, 0,
                                           COMPL + 64 * (seq - 1), 0, 0))
    Q0 = B0 + 0x1000
    if seq == 1:
        wr(Q0 + 0x0, RING)
        wr(Q0 + 0x4, 0)
        wr(Q0 + 0x8, 4)
        wr(Q0 + 0xc, 1)
    wr(Q0 + 0x14, seq % 4)
    for _ in range(5000):
        if rd(Q0 + 0x20) == seq:
            break
        time.sleep(0.001)
    return rd(Q0 + 0x20), rq(COMPL + 64 * (seq - 1) + 8) & 0xffffffff


done, status = job(1, insn(4, ln=4096, dst=0x3000, src=0x2000) +    # COPY host -> card 3
                   insn(4, ln=4096, dst=0x4000, src=0x3000) +       # COPY card 3 -> host
                   insn(1))
check('job over the fabric completed', done, 1)
check('job over the fabric: status OK', status, 0)
got = b''.join(struct.pack('<Q', rq(PB2 + 0x5000 + i)) for i in range(0, 4096, 8))
check("card 3's HBM holds the bytes (its BAR2)", got == src, True)
back = b''.join(struct.pack('<Q', rq(BACK + i)) for i in range(0, 4096, 8))
check('and they came back over the fabric', back == src, True)
done, status = job(2, insn(4, ln=64, dst=0x5000, src=0x2000) + insn(1))
check('a page of an absent card: job ends', done, 2)
check('a page of an absent card: SWAI_JOB_ERR_MMU', status, 3)
check('... latched as BAD_TARGET', rd(B0 + 0x110) >> 4 & 0xf, 5)
q.p.terminate()
check('QEMU exits cleanly with two cards on a fabric', q.p.wait(timeout=10), 0)

# --- configurations QEMU refuses, each with a message that says why ---
base = [qemu, '-machine', 'q35', '-accel', 'qtest', '-qtest', 'null', '-display', 'none',
        '-nodefaults', '-L', '/usr/share/seabios', '-L', '/usr/share/qemu', '-S']
fab = ['-device', 'swai-fabric,id=f,topology=' + mesh8]
bad = [
    (['-device', 'swai-fabric,id=f'], 'needs topology=FILE'),
    (['-device', 'swai-fabric,id=f,topology=/nonexistent.json'], 'unable to open'),
    (fab + ['-device', 'swai,fabric=f'], 'go together'),
    (fab + ['-device', 'swai,fabric-card=1'], 'go together'),
    (fab + ['-device', 'swai,fabric=f,fabric-card=8'], 'has cards 0..7'),
    (fab + ['-device', 'swai,fabric=f,fabric-card=1',
            '-device', 'swai,fabric=f,fabric-card=1'], 'already another card'),
]
for args, msg in bad:
    r = subprocess.run(base + args, capture_output=True, text=True, timeout=30)
    check('refused: %s' % ' '.join(args[-2:])[-60:],
          (r.returncode != 0, msg in r.stderr), (True, True))
    if msg not in r.stderr:
        print('# stderr: %s' % r.stderr.strip())

tap.done()
