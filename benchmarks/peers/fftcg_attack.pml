/*
 * The FFTCG attack phase of cardrules' model (model/fftcg/), under the default
 * rule set, as a Promela twin for SPIN. Same state space as the explorer's:
 * every variable below is a field of cardrules' State (or a bijective
 * encoding of one), and every d_step is one action of model/fftcg/engine.py,
 * its state-based break check (settle) included, so SPIN's "states, stored"
 * equals the explorer's distinct-state count.
 *
 * Position-specific data (the printed cards, the root, the turn bound, the
 * enumerated blocker splits) come from size.h and splits.pml, written by
 * benchmarks/peers/scenario.py for each benchmark size.
 *
 * Encodings: Forward k is the k-th id in sorted order; sets of Forwards
 * (attackers, declared, attacked, event sources; always sorted tuples in the
 * model) are bit masks; a Forward's Break Zone position is bzpos[k] (0: on
 * the field), which with the owner gives the Break Zone's order; events are
 * kind/sources/target/amount rows, unused rows zero.
 */
#include "size.h"

#define PREP 0
#define DECL 1
#define BLOCK 2
#define PREEMPT 3
#define DAMAGE 4
#define CEND 5

#define EV_DAMAGE 1
#define EV_BREAK 2
#define EV_HIT 3
#define EV_REMOVE 4
#define EV_DISBAND 5
#define TARGET_PLAYER(p) (NF + 1 + (p))   /* event target "p0"/"p1"; a Forward k is k + 1; none is 0 */

byte turn = 1;
bit tp = 0;                  /* turn player */
byte step = ROOT_STEP;
byte pdmg[2] = ROOT_DAMAGE;  /* both players start with the same damage (checked by the generator) */
bit dull[NF];
bit newf[NF];                /* not under its controller's control since the start of the turn */
int fdmg[NF];                /* damage on the Forward */
byte bzpos[NF];              /* 0 on the field, else 1-based position in its owner's Break Zone */
byte nbz[2];                 /* Break Zone sizes (a function of bzpos) */
bit att;                     /* an attack is in progress */
byte atk;                    /* attackers (mask) */
bit party;
byte decl;                   /* declared (mask) */
bit declpre;
byte blocked;                /* 0 undecided, 1 not blocked, 2 blocked */
byte blocker;                /* 0 none, else Forward + 1 */
bit adealt;
bit bdealt;
byte attacked;               /* Forwards that attacked this turn (mask) */
byte outcome;                /* 0 none, else winner + 1 */
byte nev;
byte evk[MAXEV];
byte evs[MAXEV];
byte evt[MAXEV];
int eva[MAXEV];

hidden byte hi;
hidden byte hj;
hidden byte hn;
hidden byte had;
hidden byte hbd;
hidden int htotal;
hidden byte hbroken;
hidden byte hcred[NF];        /* break credit per Forward (mask), for one check_breaks */
hidden int hsh[NF];           /* the chosen split's share per Forward */
hidden byte hany;

#define BIT(k) (1 << (k))
#define ONFIELD(k) (bzpos[k] == 0)
#define LIVE (outcome == 0 && turn <= MAXTURNS)
#define ISBROKEN(k) (POW(k) <= 0 || (POW(k) >= 1000 && fdmg[k] >= POW(k)))
#define CANATTACK(k) (OWNER(k) == tp && ONFIELD(k) && !dull[k] && (!newf[k] || HASTE(k)) && (attacked & BIT(k)) == 0)

inline log(kind, src, tgt, amt) {
    assert(nev < MAXEV);
    evk[nev] = kind; evs[nev] = src; evt[nev] = tgt; eva[nev] = amt; nev++
}

inline popcount(mask) {   /* -> hn */
    hn = 0; hi = 0;
    do :: hi < NF -> if :: (mask & BIT(hi)) -> hn++ :: else -> skip fi; hi++ :: else -> break od
}

inline to_break_zone(k) {
    nbz[OWNER(k)]++; bzpos[k] = nbz[OWNER(k)]; dull[k] = 0; fdmg[k] = 0; newf[k] = 1
}

inline disband() {        /* disband(state, attack): only a party logs */
    if :: party -> log(EV_DISBAND, atk, 0, 0); party = 0 :: else -> skip fi
}

inline left_field(k) {    /* forward_left_field, party-last-member = continues-alone */
    if
    :: !att -> skip
    :: att && blocker == k + 1 -> blocker = 0
    :: att && blocker != k + 1 && (atk & BIT(k)) == 0 -> skip
    :: att && blocker != k + 1 && (atk & BIT(k)) != 0 ->
        atk = atk & ~BIT(k);
        popcount(atk);
        if :: party && hn < 2 -> disband() :: else -> skip fi
    fi
}

inline check_breaks() {   /* breaks every hbroken Forward, in id order, with credits hcred[] */
    hbroken = 0; hj = 0;
    do :: hj < NF -> if :: ONFIELD(hj) && ISBROKEN(hj) -> hbroken = hbroken | BIT(hj) :: else -> skip fi; hj++ :: else -> break od;
    hj = 0;
    do :: hj < NF -> if :: (hbroken & BIT(hj)) -> to_break_zone(hj); log(EV_BREAK, hcred[hj], hj + 1, 0) :: else -> skip fi; hj++
       :: else -> break od;
    hj = 0;
    do :: hj < NF -> if :: (hbroken & BIT(hj)) -> left_field(hj) :: else -> skip fi; hj++ :: else -> break od;
    hj = 0;
    do :: hj < NF -> hcred[hj] = 0; hj++ :: else -> break od
}

inline dump() {   /* debugging: spin -DDUMP -a, gcc -DPRINTF: prints each state reached */
#ifdef DUMP
    printf("S %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d", turn, tp, step, pdmg[0], pdmg[1], att, atk, party, decl,
           declpre, blocked, blocker, adealt, bdealt, attacked, outcome);
    hj = 0; do :: hj < NF -> printf(" F%d,%d,%d,%d", dull[hj], newf[hj], fdmg[hj], bzpos[hj]); hj++ :: else -> break od;
    hj = 0; do :: hj < nev -> printf(" E%d,%d,%d,%d", evk[hj], evs[hj], evt[hj], eva[hj]); hj++ :: else -> break od;
    printf("\n")
#else
    skip
#endif
}

inline settle() {
    hany = 0; hj = 0;
    do :: hj < NF -> if :: ONFIELD(hj) && ISBROKEN(hj) -> hany = 1 :: else -> skip fi; hj++ :: else -> break od;
    if :: hany -> check_breaks() :: else -> skip fi;
    dump()
}

inline check_loss() {
    if
    :: outcome == 0 && pdmg[0] >= 7 -> outcome = 2
    :: outcome == 0 && pdmg[0] < 7 && pdmg[1] >= 7 -> outcome = 1
    :: else -> skip
    fi
}

inline dealing(preemptive) {   /* -> had, hbd: dealing_sides, party-preemptive-members = current-members */
    had = 0; hbd = 0;
    if
    :: blocked == 2 && blocker != 0 && atk != 0 ->
        if
        :: preemptive ->
            had = !adealt; hi = 0;
            do :: hi < NF -> if :: (atk & BIT(hi)) && !PRE(hi) -> had = 0 :: else -> skip fi; hi++ :: else -> break od;
            hbd = PRE(blocker - 1) && !bdealt
        :: else -> had = !adealt; hbd = !bdealt
        fi
    :: else -> skip
    fi
}

/* needs_split: the blocker deals damage to a party in this damage part */
#define NEEDSPLIT (att && (step == PREEMPT || step == DAMAGE) && party && blocked == 2 && blocker != 0 && atk != 0 \
                   && !bdealt && (step != PREEMPT || PRE(blocker - 1)))

inline end_of_attack() {  /* party-disband-timing = combat-end-step */
    step = CEND;
    if :: att -> disband() :: else -> skip fi
}

inline combat_damage() {  /* deal_combat_damage: party-as-one-source, survivors-only credit; hsh[] is the split */
    dealing(step == PREEMPT);
    if
    :: had ->
        htotal = 0; hi = 0;
        do :: hi < NF -> if :: (atk & BIT(hi)) && POW(hi) > 0 -> htotal = htotal + POW(hi) :: else -> skip fi; hi++
           :: else -> break od;
        fdmg[blocker - 1] = fdmg[blocker - 1] + htotal;
        log(EV_DAMAGE, atk, blocker, htotal);
        hcred[blocker - 1] = atk
    :: else -> skip
    fi;
    if
    :: hbd ->
        if
        :: !party -> hi = 0;
            do :: hi < NF -> if :: (atk & BIT(hi)) -> hsh[hi] = (POW(blocker - 1) > 0 -> POW(blocker - 1) : 0)
                            :: else -> skip fi; hi++
               :: else -> break od
        :: else -> skip
        fi;
        hi = 0;
        do :: hi < NF ->
               if :: (atk & BIT(hi)) ->
                       if :: hsh[hi] > 0 -> fdmg[hi] = fdmg[hi] + hsh[hi]; log(EV_DAMAGE, BIT(blocker - 1), hi + 1, hsh[hi])
                          :: else -> skip fi;
                       hcred[hi] = BIT(blocker - 1)
                  :: else -> skip fi;
               hi++
           :: else -> break od
    :: else -> skip
    fi;
    adealt = adealt || had; bdealt = bdealt || hbd;
    hi = 0; do :: hi < NF -> hsh[hi] = 0; hi++ :: else -> break od;
    check_breaks()
}

inline resolve_damage_part() {
    if
    :: step == DAMAGE && blocked == 1 ->
        if
        :: atk != 0 ->
            pdmg[1 - tp] = (pdmg[1 - tp] + 1 > 7 -> 7 : pdmg[1 - tp] + 1);
            log(EV_HIT, atk, TARGET_PLAYER(1 - tp), 1);
            check_loss()
        :: else -> skip
        fi
    :: else -> combat_damage()
    fi;
    if
    :: outcome != 0 -> skip
    :: outcome == 0 && step == PREEMPT -> step = DAMAGE
    :: outcome == 0 && step != PREEMPT -> end_of_attack()
    fi
}

inline clear_attack() {
    att = 0; atk = 0; party = 0; decl = 0; declpre = 0; blocked = 0; blocker = 0; adealt = 0; bdealt = 0
}

active proctype game() {
    do
    /* attack / party declarations (one option per subset, generated) */
    #include "declare.pml"
    /* block b, one option per Forward */
    #include "block.pml"
    :: d_step { LIVE && step == BLOCK && att && blocked == 0 -> blocked = 1; settle() }
    /* the blocker's split among the party (generated: every legal split) */
    #include "splits.pml"
    /* remove k, one option per Forward */
    #include "remove.pml"
    /* pass */
    :: d_step { LIVE && !(step == DECL && !att) && !(step == BLOCK && att && blocked == 0) && !NEEDSPLIT ->
        if
        :: step == PREP -> step = DECL
        :: step == DECL -> step = BLOCK
        :: step == BLOCK -> dealing(1); if :: had || hbd -> step = PREEMPT :: else -> step = DAMAGE fi
        :: step == PREEMPT || step == DAMAGE -> resolve_damage_part()
        :: step == CEND -> clear_attack(); step = DECL
        fi;
        settle() }
    /* end-turn */
    :: d_step { LIVE && (step == PREP || step == DECL) && !att ->
        hj = 0;
        do :: hj < NF ->
               if :: ONFIELD(hj) -> fdmg[hj] = 0; newf[hj] = 0; if :: OWNER(hj) != tp -> dull[hj] = 0 :: else -> skip fi
                  :: else -> skip fi; hj++
           :: else -> break od;
        tp = 1 - tp; turn++; step = PREP; clear_attack(); attacked = 0;
        hj = 0; do :: hj < MAXEV -> evk[hj] = 0; evs[hj] = 0; evt[hj] = 0; eva[hj] = 0; hj++ :: else -> break od;
        nev = 0;
        check_loss();
        settle() }
    od
}
