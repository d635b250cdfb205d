---------------------------- MODULE FftcgAttack ----------------------------
(***************************************************************************)
(* The FFTCG attack phase of cardrules' model (model/fftcg/), under the    *)
(* default rule set, as a TLA+ twin for TLC. One variable, s, a record     *)
(* with the fields of cardrules' State (sets of Forwards as sets of        *)
(* indices, the Break Zone order as each Forward's position bzpos, events  *)
(* as <<kind, sources, target, amount>>), so TLC's distinct states are the *)
(* explorer's distinct states. Each disjunct of Next is one action of      *)
(* model/fftcg/engine.py with its state-based break check (Settle).        *)
(* The position's cards come from MC.tla, written per benchmark size by    *)
(* benchmarks/peers/scenario.py.                                           *)
(***************************************************************************)
EXTENDS Integers, Sequences, FiniteSets

CONSTANTS NF, Owner, Power, Pre, Brave, Haste, Blockable, Parties, RootStep, RootDamage, MaxTurns

VARIABLE s

F == 1..NF
PREP == 0
DECL == 1
BLOCK == 2
PREEMPT == 3
DAMAGE == 4
CEND == 5
EvDamage == 1
EvBreak == 2
EvHit == 3
EvRemove == 4
EvDisband == 5
PlayerTarget(p) == NF + 1 + p
Max0(x) == IF x > 0 THEN x ELSE 0

RECURSIVE SumPow(_)
SumPow(M) == IF M = {} THEN 0 ELSE LET k == CHOOSE k \in M : TRUE IN Max0(Power[k]) + SumPow(M \ {k})

Init == s = [turn |-> 1, tp |-> 0, step |-> RootStep, pdmg |-> <<RootDamage, RootDamage>>,
             dull |-> [k \in F |-> FALSE], newf |-> [k \in F |-> FALSE], fdmg |-> [k \in F |-> 0],
             bzpos |-> [k \in F |-> 0], nbz |-> <<0, 0>>, att |-> FALSE, atk |-> {}, party |-> FALSE,
             decl |-> {}, declpre |-> FALSE, blocked |-> 0, blocker |-> 0, adealt |-> FALSE,
             bdealt |-> FALSE, attacked |-> {}, outcome |-> 0, ev |-> <<>>]

Log(t, e) == [t EXCEPT !.ev = Append(@, e)]

ToBreakZone(t, k) == LET o == Owner[k] + 1 IN
    [t EXCEPT !.nbz[o] = @ + 1, !.bzpos[k] = t.nbz[o] + 1, !.dull[k] = FALSE, !.fdmg[k] = 0, !.newf[k] = TRUE]

Disband(t) == IF t.party THEN [Log(t, <<EvDisband, t.atk, 0, 0>>) EXCEPT !.party = FALSE] ELSE t

LeftField(t, k) ==
    IF ~t.att THEN t
    ELSE IF t.blocker = k THEN [t EXCEPT !.blocker = 0]
    ELSE IF k \notin t.atk THEN t
    ELSE LET u == [t EXCEPT !.atk = @ \ {k}] IN
         IF u.party /\ Cardinality(u.atk) < 2 THEN Disband(u) ELSE u

Broken(t, k) == t.bzpos[k] = 0 /\ (Power[k] <= 0 \/ (Power[k] >= 1000 /\ t.fdmg[k] >= Power[k]))

RECURSIVE BreakFrom(_, _, _, _)
BreakFrom(t, B, cred, k) ==
    IF k > NF THEN t
    ELSE BreakFrom(IF k \in B THEN Log(ToBreakZone(t, k), <<EvBreak, cred[k], k, 0>>) ELSE t, B, cred, k + 1)

RECURSIVE LeaveFrom(_, _, _)
LeaveFrom(t, B, k) == IF k > NF THEN t ELSE LeaveFrom(IF k \in B THEN LeftField(t, k) ELSE t, B, k + 1)

CheckBreaks(t, cred) == LET B == {k \in F : Broken(t, k)} IN LeaveFrom(BreakFrom(t, B, cred, 1), B, 1)

NoCredit == [k \in F |-> {}]

Settle(t) == IF \E k \in F : Broken(t, k) THEN CheckBreaks(t, NoCredit) ELSE t

CheckLoss(t) ==
    IF t.outcome # 0 THEN t
    ELSE IF t.pdmg[1] >= 7 THEN [t EXCEPT !.outcome = 2]
    ELSE IF t.pdmg[2] >= 7 THEN [t EXCEPT !.outcome = 1]
    ELSE t

\* <<attackers deal, blocker deals>> in the Pre-emptive Strike part (pre) or the ordinary part
Dealing(t, pre) ==
    IF t.blocked = 2 /\ t.blocker # 0 /\ t.atk # {} THEN
        IF pre THEN << ~t.adealt /\ \A k \in t.atk : Pre[k], Pre[t.blocker] /\ ~t.bdealt >>
        ELSE << ~t.adealt, ~t.bdealt >>
    ELSE << FALSE, FALSE >>

NeedSplit(t) == t.att /\ t.step \in {PREEMPT, DAMAGE} /\ t.party /\ Dealing(t, t.step = PREEMPT)[2]

EndOfAttack(t) == LET u == [t EXCEPT !.step = CEND] IN IF u.att THEN Disband(u) ELSE u

RECURSIVE BlockerDeals(_, _, _, _)
BlockerDeals(t, shares, b, k) ==
    IF k > NF THEN t
    ELSE BlockerDeals(IF k \in t.atk /\ shares[k] > 0
                      THEN Log([t EXCEPT !.fdmg[k] = @ + shares[k]], <<EvDamage, {b}, k, shares[k]>>)
                      ELSE t, shares, b, k + 1)

CombatDamage(t, sh) ==
    LET d == Dealing(t, t.step = PREEMPT)
        b == t.blocker
        total == SumPow(t.atk)
        t1 == IF d[1] THEN Log([t EXCEPT !.fdmg[b] = @ + total], <<EvDamage, t.atk, b, total>>) ELSE t
        shares == IF t.party THEN sh ELSE [k \in F |-> IF k \in t.atk THEN Max0(Power[b]) ELSE 0]
        t2 == IF d[2] THEN BlockerDeals(t1, shares, b, 1) ELSE t1
        cred == [k \in F |-> IF d[1] /\ k = b THEN t.atk ELSE IF d[2] /\ k \in t.atk THEN {b} ELSE {}]
    IN CheckBreaks([t2 EXCEPT !.adealt = @ \/ d[1], !.bdealt = @ \/ d[2]], cred)

Unblocked(t) ==
    IF t.atk = {} THEN t
    ELSE LET p == 1 - t.tp IN
         CheckLoss(Log([t EXCEPT !.pdmg[p + 1] = IF @ + 1 > 7 THEN 7 ELSE @ + 1], <<EvHit, t.atk, PlayerTarget(p), 1>>))

ResolveDamagePart(t, sh) ==
    LET u == IF t.step = DAMAGE /\ t.blocked = 1 THEN Unblocked(t) ELSE CombatDamage(t, sh) IN
    IF u.outcome # 0 THEN u ELSE IF u.step = PREEMPT THEN [u EXCEPT !.step = DAMAGE] ELSE EndOfAttack(u)

ClearAttack(t) == [t EXCEPT !.att = FALSE, !.atk = {}, !.party = FALSE, !.decl = {}, !.declpre = FALSE,
                            !.blocked = 0, !.blocker = 0, !.adealt = FALSE, !.bdealt = FALSE]

CanAttack(k) == Owner[k] = s.tp /\ s.bzpos[k] = 0 /\ ~s.dull[k] /\ (~s.newf[k] \/ Haste[k]) /\ k \notin s.attacked

Declare == \E M \in {{k} : k \in F} \cup Parties :
    /\ s.step = DECL /\ ~s.att /\ \A k \in M : CanAttack(k)
    /\ s' = Settle([s EXCEPT !.dull = [k \in F |-> IF k \in M /\ ~Brave[k] THEN TRUE ELSE s.dull[k]],
                             !.att = TRUE, !.atk = M, !.party = Cardinality(M) >= 2, !.decl = M,
                             !.declpre = \A k \in M : Pre[k], !.attacked = @ \cup M])

Block == \E b \in F :
    /\ s.step = BLOCK /\ s.att /\ s.blocked = 0 /\ Owner[b] # s.tp /\ s.bzpos[b] = 0 /\ ~s.dull[b]
    /\ s.atk \cap Blockable[b] # {}
    /\ s' = Settle([s EXCEPT !.blocked = 2, !.blocker = b])

NoBlock == s.step = BLOCK /\ s.att /\ s.blocked = 0 /\ s' = Settle([s EXCEPT !.blocked = 1])

RECURSIVE SumOf(_, _)
SumOf(g, X) == IF X = {} THEN 0 ELSE LET k == CHOOSE k \in X : TRUE IN g[k] + SumOf(g, X \ {k})

\* every way to divide the blocker's power among the members: multiples of 1000, zero allowed
Splits(M, power) == LET u == Max0(power) \div 1000 IN
    {[k \in F |-> IF k \in M THEN 1000 * f[k] ELSE 0] : f \in {g \in [M -> 0..u] : SumOf(g, M) = u}}

Split == NeedSplit(s) /\ \E sh \in Splits(s.atk, Power[s.blocker]) : s' = Settle(ResolveDamagePart(s, sh))

Remove == \E k \in F :
    /\ s.bzpos[k] = 0
    /\ (s.step \in {PREP, DECL, CEND} \/ (s.step = BLOCK /\ s.att /\ s.blocked # 0))
    /\ s' = Settle(LET t == LeftField(Log(ToBreakZone(s, k), <<EvRemove, {}, k, 0>>), k) IN
                   IF t.att /\ t.atk = {} /\ t.step \in {DECL, BLOCK} THEN EndOfAttack(t) ELSE t)

NoShares == [k \in F |-> 0]

Pass ==
    /\ ~(s.step = DECL /\ ~s.att) /\ ~(s.step = BLOCK /\ s.att /\ s.blocked = 0) /\ ~NeedSplit(s)
    /\ s' = Settle(CASE s.step = PREP -> [s EXCEPT !.step = DECL]
                     [] s.step = DECL -> [s EXCEPT !.step = BLOCK]
                     [] s.step = BLOCK -> LET d == Dealing(s, TRUE) IN
                                          [s EXCEPT !.step = IF d[1] \/ d[2] THEN PREEMPT ELSE DAMAGE]
                     [] s.step \in {PREEMPT, DAMAGE} -> ResolveDamagePart(s, NoShares)
                     [] s.step = CEND -> [ClearAttack(s) EXCEPT !.step = DECL])

EndTurn ==
    /\ s.step \in {PREP, DECL} /\ ~s.att
    /\ s' = Settle(CheckLoss([s EXCEPT
                     !.fdmg = [k \in F |-> IF s.bzpos[k] = 0 THEN 0 ELSE s.fdmg[k]],
                     !.newf = [k \in F |-> IF s.bzpos[k] = 0 THEN FALSE ELSE s.newf[k]],
                     !.dull = [k \in F |-> IF s.bzpos[k] = 0 /\ Owner[k] # s.tp THEN FALSE ELSE s.dull[k]],
                     !.tp = 1 - s.tp, !.turn = s.turn + 1, !.step = PREP, !.att = FALSE, !.atk = {},
                     !.party = FALSE, !.decl = {}, !.declpre = FALSE, !.blocked = 0, !.blocker = 0,
                     !.adealt = FALSE, !.bdealt = FALSE, !.attacked = {}, !.ev = <<>>]))

Next == s.outcome = 0 /\ s.turn <= MaxTurns /\ (Declare \/ Block \/ NoBlock \/ Split \/ Remove \/ Pass \/ EndTurn)

Spec == Init /\ [][Next]_s
=============================================================================
