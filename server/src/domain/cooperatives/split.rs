//! How a lot's proceeds are shared (docs/cooperatives.md, Shares): in proportion to
//! the grams each member put in, in whole cents, adding up exactly. Each member first
//! gets the floor of their exact share; the cents left (fewer than the members) go one
//! each to the largest remainders, ties to the larger contribution, then to the lower
//! member id. No cent is made or lost, and the same inputs always give the same split.

/// `amount_cents` shared by `grams` per member (member id, grams): (member id, cents),
/// in the order given. Members with no grams get nothing; with no grams at all, nobody does.
pub fn shares(amount_cents: i64, contributions: &[(i64, i64)]) -> Vec<(i64, i64)> {
    let total: i128 = contributions.iter().map(|&(_, g)| i128::from(g.max(0))).sum();
    if total == 0 || amount_cents <= 0 {
        return contributions.iter().map(|&(member, _)| (member, 0)).collect();
    }
    let amount = i128::from(amount_cents);
    let mut out: Vec<(i64, i64, i128)> = contributions
        .iter()
        .map(|&(member, grams)| {
            let exact = amount * i128::from(grams.max(0));
            (member, (exact / total) as i64, exact % total)
        })
        .collect();
    let given: i64 = out.iter().map(|s| s.1).sum();
    let mut order: Vec<usize> = (0..out.len()).collect();
    order.sort_by(|&a, &b| {
        out[b].2.cmp(&out[a].2).then(contributions[b].1.cmp(&contributions[a].1)).then(out[a].0.cmp(&out[b].0))
    });
    for &i in order.iter().take((amount_cents - given) as usize) {
        out[i].1 += 1;
    }
    out.into_iter().map(|(member, cents, _)| (member, cents)).collect()
}

/// A fee of `bp` basis points of `amount_cents`, rounded half up to the cent.
pub fn fee(amount_cents: i64, bp: i64) -> i64 {
    (amount_cents * bp + 5000) / 10000
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_members_share_a_hundred_cents_exactly() {
        assert_eq!(shares(100, &[(1, 1000), (2, 1000), (3, 1000)]), vec![(1, 34), (2, 33), (3, 33)]);
        assert_eq!(shares(100, &[(7, 3000), (2, 1000)]), vec![(7, 75), (2, 25)]);
        // The larger remainder first, then the larger delivery, then the lower id.
        assert_eq!(shares(10, &[(1, 1), (2, 2)]), vec![(1, 3), (2, 7)]);
        assert_eq!(shares(0, &[(1, 5)]), vec![(1, 0)]);
        assert_eq!(shares(50, &[(1, 0), (2, 0)]), vec![(1, 0), (2, 0)]);
    }

    #[test]
    fn any_split_adds_up_to_the_amount_and_no_one_is_off_by_more_than_a_cent() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for _ in 0..2000 {
            let amount = next(50_000_000) as i64 + 1;
            let members: Vec<(i64, i64)> = (0..next(60) + 1).map(|m| (m as i64, next(2_000_000) as i64)).collect();
            let total: i64 = members.iter().map(|m| m.1).sum();
            let split = shares(amount, &members);
            if total == 0 {
                continue;
            }
            assert_eq!(split.iter().map(|s| s.1).sum::<i64>(), amount);
            for ((_, grams), (_, cents)) in members.iter().zip(&split) {
                let exact = amount as f64 * *grams as f64 / total as f64;
                assert!((*cents as f64 - exact).abs() < 1.0 + 1e-6, "{cents} vs {exact}");
            }
        }
    }

    #[test]
    fn fees_round_half_up() {
        assert_eq!(fee(1000, 250), 25);
        assert_eq!(fee(199, 250), 5);
        assert_eq!(fee(100, 0), 0);
    }
}
