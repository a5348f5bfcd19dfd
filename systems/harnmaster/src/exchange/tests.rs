use super::*;

/// Issue 12, items 1 and 2, and mounted reach: the readings in the module's doc.
#[test]
fn aim_by_posture() {
    let h = super::super::body::human();
    assert_eq!(aim_of(&h, None, false, false), (1, false, 0));
    assert_eq!(aim_of(&h, Some(5), false, false), (5, true, 0));
    // Standing against prone: any ZN, no penalty.
    assert_eq!(aim_of(&h, Some(5), false, true), (5, false, 0));
    // Prone against a standing human: ZN2-3 are the default; ZN1 -10 and -2 RCH.
    assert_eq!(aim_of(&h, None, true, false), (2, false, 0));
    assert_eq!(aim_of(&h, Some(3), true, false), (3, false, 0));
    assert_eq!(aim_of(&h, Some(1), true, false), (1, true, 2));
    assert_eq!(aim_of(&h, Some(5), true, false), (5, true, 0));
    // Both prone: as both standing.
    assert_eq!(aim_of(&h, Some(2), true, true), (2, true, 0));
    // A rider: -1 RCH not aimed at ZN1 of an unmounted human; an unmounted striker -1
    // RCH at a rider's ZN1.
    assert_eq!(mounted_reach_loss(&h, 5, true, false), 1);
    assert_eq!(mounted_reach_loss(&h, 1, true, false), 0);
    assert_eq!(mounted_reach_loss(&h, 1, false, true), 1);
    assert_eq!(mounted_reach_loss(&h, 5, false, true), 0);
    assert_eq!(mounted_reach_loss(&h, 5, true, true), 0);
}
