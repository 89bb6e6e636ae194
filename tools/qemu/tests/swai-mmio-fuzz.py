#!/usr/bin/python3
"""Fuzz the swai device model as a root guest could, through qtest.

usage: swai-mmio-fuzz.py QEMU [SECONDS [SEED]]   (defaults: 30 s, the clock)

QEMU's generic-fuzz practice, aimed at this device: random and nearly valid
writes to every BAR (registers, queue registers of real and absent queues,
the MSI-X table, the HBM window), job descriptors in the rings with
doorbells, core-group programs of nearly valid instructions, MMU context
and page tables with random entries, resets in the middle.  The device must
never abort, assert or stop answering: qtest and the QMP monitor are asked
throughout.  Prints TAP: the operations run, QEMU alive and answering, and
how often the card latched an error (ERROR, MMU faults, bad rings, failed
jobs) instead of crashing.  Exit status 1 on any failure.
"""
import os
import random
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from swai_qtest_lib import Qtest, B0, B1, B2  # noqa: E402

qemu = sys.argv[1]
seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 30
seed = int(sys.argv[3], 0) if len(sys.argv) > 3 else time.time_ns() & 0xffffffff
rng = random.Random(seed)
print('# seed %#x, %g s (replay: swai-mmio-fuzz.py QEMU %g %#x)' % (seed, seconds, seconds, seed))

# Guest RAM the fuzzer points the card at.
CTX, PT, RING, PROG, COMPL, MSI = 0x100000, 0x110000, 0x200000, 0x400000, 0x500000, 0x600000
NQ = 4
REGS = [0x00, 0x04, 0x08, 0x0c, 0x10, 0x14, 0x18, 0x20, 0x24, 0x28, 0x2c, 0x30, 0x34, 0x38,
        0x3c, 0x80, 0x84, 0x88, 0x100, 0x104, 0x108, 0x10c, 0x110, 0x114, 0x118, 0x120,
        0x124, 0x128, 0x12c, 0x130, 0x134] + list(range(0x200, 0x240, 4))
QREGS = [0x00, 0x04, 0x08, 0x0c, 0x10, 0x14, 0x18, 0x20, 0x24, 0x28, 0x2c, 0x30, 0x34]

# The card's NIC port is on a QEMU hub with a second card's (node 1).
q = Qtest(qemu, ('netdev=h0', 'nic-node=0'), qmp=True,
          args=('-netdev', 'hubport,id=h0,hubid=0', '-netdev', 'hubport,id=h1,hubid=0',
                '-device', 'swai,addr=05.0,netdev=h1,nic-node=1'))
q.map_bars()
stats = dict(ops=0, writes=0, reads=0, doorbells=0, descs=0, programs=0, tables=0,
             resets=0, error_latched=0, mmu_faults=0, bad_rings=0, jobs=0, nic_posts=0,
             nic_taken=0)
last_jobs = [0] * NQ


def plausible():
    return rng.choice([0, 1, 2, 4, 16, 4096, 0xffffffff, rng.getrandbits(32),
                       RING, PROG, COMPL, CTX, PT, 0x52534554, rng.randrange(0, 1 << 16)])


def setup_mmu():
    """Context 1 maps device VA 0..2 MiB onto guest RAM at PROG."""
    q.put(CTX + 16, struct.pack('<QQ', PT | 1, 0))
    q.put(PT, struct.pack('<Q', (PT + 0x1000) | 1))
    q.put(PT + 0x1000, struct.pack('<Q', (PT + 0x2000) | 1))
    q.put(PT + 0x2000, b''.join(struct.pack('<Q', (PROG + 4096 * i) | 7) for i in range(512)))
    q.wr(B0 + 0x100, CTX)
    q.wr(B0 + 0x104, 0)


def setup_nic():
    """Port 3 open for context 1 (key 0x77), so most posts reach the engine."""
    q.wr(B0 + 0x408, 3)
    q.wr(B0 + 0x40c, 1)
    q.wr(B0 + 0x410, 0x77)


def setup_queues():
    for n in range(NQ):
        base = B0 + 0x1000 + 0x100 * n
        q.wr(base + 0x00, RING + 0x10000 * n)
        q.wr(base + 0x04, 0)
        q.wr(base + 0x08, 16)
        q.wr(base + 0x0c, 1)


def insn():
    """48 bytes: a real opcode over addresses the context maps, a few bits flipped."""
    op = rng.randrange(0, 0x13)
    b = bytearray(struct.pack('<BBBBIQQQQQ', op, rng.randrange(4), rng.randrange(4),
                              rng.randrange(4), rng.randrange(8),
                              rng.randrange(0, 1 << 21), rng.randrange(0, 1 << 21),
                              rng.choice([8, 64, 4096, rng.randrange(1 << 20),
                                          rng.getrandbits(64)]),
                              rng.randrange(0, 1 << 13), rng.randrange(0, 1 << 13)))
    for _ in range(rng.randrange(3)):
        b[rng.randrange(48)] ^= 1 << rng.randrange(8)
    return bytes(b)


def desc():
    flags = rng.choice([0, 0, 0, 8, rng.randrange(16), rng.getrandbits(32)])
    return struct.pack('<QIIQIIQQQQ', rng.getrandbits(16), rng.choice([1, 1, 1, 0, 2, 4095]),
                       flags, rng.choice([0, 0, 48 * rng.randrange(64), rng.getrandbits(39)]),
                       rng.choice([48, 96, 480, 48 * rng.randrange(1, 300), rng.getrandbits(32)]),
                       0, rng.getrandbits(20), COMPL + 64 * rng.randrange(64), 1, 0)


def nic_desc():
    """128 bytes, mostly a descriptor the card would take, a few bits flipped."""
    kind = rng.choice([1, 2, 3, 4, 1, 2, rng.randrange(16)])
    flags = rng.choice([0, 0x10, 0x50, 0x70, 0x90, 0xd0, 0x100, rng.getrandbits(12) << 4])
    width = rng.choice([4, 8, 8, rng.randrange(16)])
    b = bytearray(struct.pack('<IBBBBBBBBHHIHHQ', kind | flags,
                              rng.choice([3, 3, 3, rng.randrange(16)]),
                              rng.choice([3, 3, rng.randrange(17)]), rng.choice([0, 1, 2, 255]), rng.randrange(255),
                              rng.randrange(12), rng.randrange(4), width,
                              rng.randrange(48 // max(width, 1) + 2),
                              rng.choice([0, 0, 0, 1, rng.getrandbits(16)]),
                              rng.choice([0, 1, 1, 0xffff, rng.getrandbits(16)]),
                              rng.choice([0, 0, 1, 2, rng.getrandbits(32)]), 0,
                              rng.choice([0x77, rng.getrandbits(16)]),
                              rng.choice([0, 4096, rng.getrandbits(64)])))
    b += bytes(rng.getrandbits(8) for _ in range(96))
    for _ in range(rng.randrange(3)):
        b[rng.randrange(128)] ^= 1 << rng.randrange(8)
    return bytes(b)


def nic_op():
    """The NIC: ports opened and closed, descriptors posted, completions taken."""
    r = rng.random()
    if r < 0.4:
        d = nic_desc()
        for i in range(0, 128, 4):
            q.wr(B0 + 0x500 + i, struct.unpack_from('<I', d, i)[0])
        q.wr(B0 + 0x420, 1)
        stats['nic_posts'] += 1
        stats['nic_taken'] += q.rd(B0 + 0x424) == 0
    elif r < 0.6:
        q.wr(B0 + 0x430, 1)
        q.rd(B0 + 0x434)
    elif r < 0.65:
        q.wr(B0 + rng.choice([0x408, 0x40c, 0x410, 0x414, 0x418, 0x41c]),
             rng.choice([0, 1, 7, 15, 16, rng.getrandbits(32)]))
    else:
        setup_nic()


def op():
    r = rng.random()
    if r < 0.06:
        nic_op()
        stats['writes'] += 1
    elif r < 0.20:                  # a descriptor, then the doorbell
        n = rng.randrange(NQ + 1)
        base = B0 + 0x1000 + 0x100 * n
        slot = rng.randrange(16)
        q.put(RING + 0x10000 * (n % NQ) + 64 * slot, desc())
        q.wr(base + 0x14, rng.choice([slot + 1, rng.randrange(32), rng.getrandbits(32)]))
        stats['descs'] += 1
        stats['doorbells'] += 1
    elif r < 0.32:                  # a program
        q.put(PROG + 48 * rng.randrange(64), b''.join(insn() for _ in range(rng.randrange(1, 8))))
        stats['programs'] += 1
    elif r < 0.38:                  # the MMU's tables
        where = rng.choice([CTX + 16 * rng.randrange(16), PT + 8 * rng.randrange(1536)])
        q.put(where, struct.pack('<Q', rng.choice([rng.getrandbits(64), (PROG + 4096 *
                                                   rng.randrange(512)) | rng.randrange(8)])))
        if rng.random() < 0.3:
            q.wr(B0 + 0x10c, rng.choice([1, 0x80000000, rng.getrandbits(32)]))
        stats['tables'] += 1
    elif r < 0.58:                  # a known register, a plausible value
        if rng.random() < 0.5:
            a = B0 + rng.choice(REGS)
        else:
            a = B0 + 0x1000 + 0x100 * rng.randrange(NQ + 2) + rng.choice(QREGS)
        q.wr(a, plausible())
        stats['writes'] += 1
    elif r < 0.70:                  # anywhere in BAR0, any width
        w = rng.choice('bwlq')
        q.wr(B0 + rng.randrange(0x10000), rng.getrandbits({'b': 8, 'w': 16, 'l': 32, 'q': 64}[w]), w)
        stats['writes'] += 1
    elif r < 0.82:
        q.rd(B0 + rng.randrange(0x10000) & ~3)
        stats['reads'] += 1
    elif r < 0.90:                  # the HBM window
        a = B2 + rng.randrange(64 << 20)
        if rng.random() < 0.5:
            q.wr(a, rng.getrandbits(32))
        else:
            q.rd(a)
        stats['writes'] += 1
    elif r < 0.95:                  # the MSI-X table and PBA
        q.wr(B1 + rng.randrange(0x1000) & ~3, rng.choice([MSI, 0, rng.getrandbits(32)]))
        stats['writes'] += 1
    elif r < 0.96:                  # a queue reset
        q.wr(B0 + 0x1000 + 0x100 * rng.randrange(NQ) + 0x0c, rng.choice([2, 3, 1]))
        stats['resets'] += 1
    elif r < 0.962:                 # the card reset, then set up again
        q.wr(B0 + 0x10, 0x52534554)
        setup_mmu()
        setup_queues()
        setup_nic()
        stats['resets'] += 1
    else:                           # the Local/Global switch
        q.wr(B0 + 0x34, rng.randrange(0, 300))
        stats['writes'] += 1
    stats['ops'] += 1


def latched():
    """Count and clear what the card latched instead of crashing."""
    e = q.rd(B0 + 0x18)
    if e:
        stats['error_latched'] += 1
        q.wr(B0 + 0x18, 0xffffffff)
    f = q.rd(B0 + 0x110)
    if f:
        stats['mmu_faults'] += 1
        q.wr(B0 + 0x110, 0xffffffff)
    for n in range(NQ):
        base = B0 + 0x1000 + 0x100 * n
        if q.rd(base + 0x18) & 4:
            stats['bad_rings'] += 1
        j = q.rd(base + 0x30)           # JOBS: since the queue's last reset
        stats['jobs'] += j - last_jobs[n] if j >= last_jobs[n] else j
        last_jobs[n] = j


ok_alive, why = True, ''
monitor_checks = 0
try:
    setup_mmu()
    setup_queues()
    setup_nic()
    q.wr(B0 + 0x84, 0xffffffff)
    end = time.time() + seconds
    while time.time() < end:
        for _ in range(200):
            op()
        latched()
        if q.rd(B0) != 0x53574149:
            raise SystemExit('ID register lost')
        if stats['ops'] % 2000 < 200:
            if q.qmp('query-status').get('status') not in ('running', 'prelaunch'):
                raise SystemExit('monitor says the VM stopped')
            monitor_checks += 1
    q.qmp('query-status')
    monitor_checks += 1
except SystemExit as e:
    ok_alive, why = False, str(e)
except Exception as e:      # a dead monitor socket, a broken pipe
    ok_alive, why = False, repr(e)

print('1..3')
print('ok 1 - %d operations: %d descriptors with doorbells, %d programs, %d table writes, '
      '%d other writes, %d reads, %d resets, %d NIC posts (%d taken)' % (
          stats['ops'], stats['descs'], stats['programs'], stats['tables'], stats['writes'],
          stats['reads'], stats['resets'], stats['nic_posts'], stats['nic_taken']))
print('%sok 2 - QEMU alive, answering qtest and %d monitor queries%s' %
      ('' if ok_alive else 'not ', monitor_checks, '' if ok_alive else ': ' + why))
print('ok 3 - the card latched instead of crashing: ERROR %d times, MMU faults %d, bad rings %d; '
      'at least %d jobs ran to completion' % (stats['error_latched'], stats['mmu_faults'],
                                               stats['bad_rings'], stats['jobs']))
if ok_alive:
    q.p.terminate()
    q.p.wait(timeout=10)
sys.exit(0 if ok_alive else 1)
