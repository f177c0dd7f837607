//! Tests of the dataset, loss, gradient, K and the tuner.

use super::fixtures::*;
use super::*;
use crate::jobs::tune::select_params;
use chuhan_engine::eval::linear_features;
use chuhan_engine::{Color, Position};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

#[test]
fn dataset_evaluation_matches_the_engine() {
    let positions = random_games(5, 80, 3, |_| 0.5);
    let base = perturbed_material();
    let tuned = select_params(&["material.horse", "pst.chariot"], true).unwrap();
    let data = Dataset::new(&positions, &tuned, &base);
    let weights: Vec<f64> = tuned.iter().map(|&i| f64::from(base.get(i))).collect();
    let tables = chuhan_engine::eval::EvalTables::new(&base);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
    for _ in 0..40 {
        // Rebuild a game position to compare with the engine's own evaluation.
        let mut pos = Position::startpos();
        for _ in 0..rng.gen_range(1..60) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.make(moves.as_slice()[rng.gen_range(0..moves.len())]);
        }
        let one = [LabelledPosition {
            line: 1,
            game: 0,
            result: 1.0,
            ply: 0,
            eval: 0.0,
            features: linear_features(&pos),
        }];
        let d = Dataset::new(&one, &tuned, &base);
        let red = d.evaluation(0, &weights);
        let stm = if pos.side_to_move() == Color::Red {
            red
        } else {
            -red
        };
        // The engine truncates the endgame offsets' taper toward zero (whole centipawns).
        let engine = f64::from(tables.evaluate(&pos));
        assert!((stm - engine).abs() < 1.0, "{stm} vs {engine}");
    }
    for (i, p) in positions.iter().enumerate() {
        // Equal but for the order of the floating-point sums (the phase makes features
        // fractional).
        let (got, want) = (data.evaluation(i, &weights), evaluation(&base, &p.features));
        assert!((got - want).abs() < 1e-9, "{got} vs {want}");
    }
}

#[test]
fn gradient_matches_central_differences() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    let truth = perturbed_material();
    let positions = random_games(40, 100, 5, |f| {
        // Noisy game-like labels.
        let s = sigmoid(0.9 * evaluation(&truth, f));
        let u: f64 = rng.gen();
        if u < s * 0.9 {
            1.0
        } else if u < s * 0.9 + 0.1 {
            0.5
        } else {
            0.0
        }
    });
    let tuned = all_linear();
    let data = Dataset::new(&positions, &tuned, &Params::default());
    let mut w: Vec<f64> = tuned
        .iter()
        .map(|&i| f64::from(Params::default().get(i)))
        .collect();
    for (j, x) in w.iter_mut().enumerate() {
        *x += (j % 7) as f64 - 3.0;
    }
    let k = 1.1;
    let (loss, grad) = data.loss_and_gradient(k, &w);
    assert_eq!(loss, data.loss(k, &w));
    let biggest = grad.iter().fold(0f64, |m, g| m.max(g.abs()));
    let mut checked = 0;
    for j in 0..w.len() {
        if grad[j].abs() < 1e-2 * biggest {
            continue;
        }
        let h = 1e-2;
        let mut up = w.clone();
        up[j] += h;
        let mut down = w.clone();
        down[j] -= h;
        let numeric = (data.loss(k, &up) - data.loss(k, &down)) / (2.0 * h);
        let rel = (numeric - grad[j]).abs() / grad[j].abs();
        assert!(
            rel < 1e-5,
            "{}: analytic {} numeric {numeric} (relative error {rel})",
            params::table()[tuned[j]].name,
            grad[j]
        );
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} parameters checked");
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(12);
    let positions = random_games(110, 110, 6, |_| f64::from(rng.gen_range(0..3u8)) / 2.0);
    assert!(positions.len() > 2 * CHUNK, "several chunks");
    let s = split(&positions, 0.1, 4);
    let problem = TexelProblem::new(&positions, &s, all_linear(), Params::default());
    let settings = TexelSettings {
        epochs: 8,
        learning_rate: 1.0,
        optimizer: Optimizer::Adam,
        k: None,
        lambda: 1.0,
        patience: None,
    };
    let runs: Vec<TexelOutcome> = [1, 2, 3]
        .iter()
        .map(|&t| pool(t).install(|| tune(&problem, &settings, |_| {})))
        .collect();
    for r in &runs[1..] {
        assert_eq!(r.k.to_bits(), runs[0].k.to_bits());
        let bits = |o: &TexelOutcome| -> Vec<u64> {
            let mut v = o.weights.clone();
            for e in &o.history {
                v.push(e.train);
                v.push(e.validation.unwrap());
            }
            v.iter().map(|x| x.to_bits()).collect()
        };
        assert_eq!(bits(r), bits(&runs[0]));
    }
}

#[test]
fn tuning_recovers_perturbed_material_values() {
    let truth = perturbed_material();
    let k_true = 1.0;
    let positions = random_games(60, 120, 7, |f| sigmoid(k_true * evaluation(&truth, f)));
    let s = split(&positions, 0.1, 1);
    let tuned = select_params(&["material"], true).unwrap();
    let problem = TexelProblem::new(&positions, &s, tuned.clone(), Params::default());
    let target: Vec<f64> = tuned.iter().map(|&i| f64::from(truth.get(i))).collect();
    for (optimizer, lr) in [(Optimizer::Adam, 4.0), (Optimizer::AdaGrad, 40.0)] {
        let settings = TexelSettings {
            epochs: 300,
            learning_rate: lr,
            optimizer,
            k: Some(k_true),
            lambda: 1.0,
            patience: None,
        };
        let o = tune(&problem, &settings, |_| {});
        let last = o.history.last().unwrap();
        assert!(
            last.train < 0.05 * o.initial.train,
            "{optimizer}: train loss {} -> {}",
            o.initial.train,
            last.train
        );
        assert!(last.validation.unwrap() < 0.05 * o.initial.validation.unwrap());
        let before = distance(&o.start, &target);
        let after = distance(&o.weights, &target);
        assert!(
            after < 0.01 * before,
            "{optimizer}: distance to the truth {before} -> {after}; weights {:?}, truth {target:?}",
            o.weights
        );
        let changes = o.changes(&problem);
        assert_eq!(changes.len(), 6);
        assert!(changes
            .windows(2)
            .all(|w| (w[0].tuned - w[0].base).abs() >= (w[1].tuned - w[1].base).abs()));
    }
}

/// With `lambda = 0` the target is the recorded score: material values are recovered from
/// scores a "stronger engine" (the perturbed truth) recorded, while the game results are
/// coin flips that carry nothing; with `lambda = 1` the same data does not recover them.
#[test]
fn lambda_zero_fits_the_recorded_scores() {
    let truth = perturbed_material();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(15);
    let mut positions = random_games(60, 120, 7, |_| f64::from(rng.gen_range(0..3u8)) / 2.0);
    for p in &mut positions {
        p.eval = evaluation(&truth, &p.features);
    }
    let s = split(&positions, 0.1, 1);
    let tuned = select_params(&["material"], true).unwrap();
    let problem = TexelProblem::new(&positions, &s, tuned.clone(), Params::default());
    let target: Vec<f64> = tuned.iter().map(|&i| f64::from(truth.get(i))).collect();
    let run = |lambda: f64| {
        let settings = TexelSettings {
            epochs: 300,
            learning_rate: 4.0,
            optimizer: Optimizer::Adam,
            k: Some(1.0),
            lambda,
            patience: None,
        };
        tune(&problem, &settings, |_| {})
    };
    let scores = run(0.0);
    let before = distance(&scores.start, &target);
    let after = distance(&scores.weights, &target);
    assert!(
        after < 0.01 * before,
        "distance to the truth {before} -> {after}; weights {:?}, truth {target:?}",
        scores.weights
    );
    let last = scores.history.last().unwrap();
    assert!(last.validation.unwrap() < 0.05 * scores.initial.validation.unwrap());
    let results = run(1.0);
    assert!(
        distance(&results.weights, &target) > 0.2 * before,
        "coin-flip results should not recover the truth: {:?}",
        results.weights
    );
    // A blend sits between: its target for a position is the average of the two.
    let half = problem.train.blended(0.5, 1.0);
    for i in 0..problem.train.len() {
        let e = positions[s.train[i]].eval;
        let want = 0.5 * problem.train.result(i) + 0.5 * sigmoid(e);
        assert!((half.result(i) - want).abs() < 1e-12);
    }
}

/// 400 seeded random games whose results are drawn from perturbed material values (K 0.8),
/// a fifth held out, every linear parameter tuned: noisy enough that Adam fits the noise.
fn noisy_results() -> (Vec<LabelledPosition>, TexelProblem) {
    let truth = perturbed_material();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(13);
    let positions = random_games(400, 60, 8, |f| {
        f64::from(u8::from(
            rng.gen::<f64>() < sigmoid(0.8 * evaluation(&truth, f)),
        ))
    });
    let s = split(&positions, 0.2, 2);
    let problem = TexelProblem::new(&positions, &s, all_linear(), Params::default());
    (positions, problem)
}

#[test]
fn tuning_everything_lowers_train_and_validation_loss() {
    let (_, problem) = noisy_results();
    // Few epochs: with 200 parameters and 20,000 noisy labels, Adam starts to fit the noise
    // in rare piece-square entries after a few dozen.
    let settings = TexelSettings {
        epochs: 25,
        learning_rate: 1.0,
        optimizer: Optimizer::Adam,
        k: None,
        lambda: 1.0,
        patience: None,
    };
    let o = tune(&problem, &settings, |_| {});
    assert!(o.k_fitted && o.k > 0.1 && o.k < 5.0, "K = {}", o.k);
    let last = o.history.last().unwrap();
    assert!(last.train < o.initial.train);
    assert!(last.validation.unwrap() < o.initial.validation.unwrap());
    // Every weight stays inside its declared range.
    for (&i, &w) in problem.tuned.iter().zip(&o.weights) {
        let d = &params::table()[i];
        assert!(f64::from(d.min) <= w && w <= f64::from(d.max), "{}", d.name);
    }
}

/// Early stopping on noisy labels: the run ends `patience` epochs after the lowest
/// validation loss, keeps that epoch's weights, and follows the same path as a run without
/// it until then.
#[test]
fn early_stopping_keeps_the_lowest_validation_loss() {
    let (positions, problem) = noisy_results();
    let epochs = 400;
    let patience = 10;
    let settings = TexelSettings {
        epochs,
        learning_rate: 1.0,
        optimizer: Optimizer::Adam,
        k: Some(0.8),
        lambda: 1.0,
        patience: Some(patience),
    };
    let o = tune(&problem, &settings, |_| {});
    let kept = o.kept_epoch.expect("early stopping keeps an epoch");
    assert!(o.stopped_early);
    // The noise is fitted long before 400 epochs: the run stopped early.
    assert!(o.history.len() < epochs, "ran {} epochs", o.history.len());
    assert_eq!(
        o.history.len(),
        kept + patience,
        "stopped {patience} after the best"
    );
    let lowest = std::iter::once(&o.initial)
        .chain(&o.history)
        .min_by(|a, b| a.validation.unwrap().total_cmp(&b.validation.unwrap()))
        .unwrap();
    assert_eq!(lowest.epoch, kept);
    assert!(kept > 0, "tuning first lowers the validation loss");
    let held_out = problem.validation.as_ref().unwrap();
    assert_eq!(held_out.loss(0.8, &o.weights), lowest.validation.unwrap());
    assert!(
        o.history.last().unwrap().validation.unwrap() > lowest.validation.unwrap(),
        "the last epochs fit the noise"
    );
    // Without early stopping, the same epochs take the same path.
    let full = tune(
        &problem,
        &TexelSettings {
            epochs: o.history.len(),
            patience: None,
            ..settings
        },
        |_| {},
    );
    assert_eq!(full.history, o.history);
    assert_eq!((full.kept_epoch, full.stopped_early), (None, false));
    assert_ne!(full.weights, o.weights);
    // Without held-out positions there is nothing to stop on: every epoch runs.
    let none = TexelProblem::new(
        &positions,
        &split(&positions, 0.0, 1),
        all_linear(),
        Params::default(),
    );
    let short = TexelSettings {
        epochs: 5,
        ..settings
    };
    let o = tune(&none, &short, |_| {});
    assert_eq!(
        (o.history.len(), o.kept_epoch, o.stopped_early),
        (5, None, false)
    );
}

#[test]
fn validation_is_held_out_whole_games_and_seeded() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(14);
    let positions = random_games(50, 40, 9, |_| f64::from(rng.gen_range(0..3u8)) / 2.0);
    let a = split(&positions, 0.1, 42);
    assert_eq!(a, split(&positions, 0.1, 42), "same seed, same split");
    assert_ne!(a, split(&positions, 0.1, 43), "another seed, another split");
    let mut all: Vec<usize> = a.train.iter().chain(&a.validation).copied().collect();
    all.sort_unstable();
    assert_eq!(all, (0..positions.len()).collect::<Vec<_>>(), "a partition");
    let held: std::collections::BTreeSet<u32> =
        a.validation.iter().map(|&i| positions[i].game).collect();
    assert_eq!(held.len(), 5, "10% of 50 games");
    assert!(a.train.iter().all(|&i| !held.contains(&positions[i].game)));
    assert!(split(&positions, 0.0, 42).validation.is_empty());

    // The reported validation loss is the loss on exactly the held-out positions.
    let problem = TexelProblem::new(&positions, &a, all_linear(), Params::default());
    let settings = TexelSettings {
        epochs: 3,
        learning_rate: 1.0,
        optimizer: Optimizer::Adam,
        k: Some(1.0),
        lambda: 1.0,
        patience: None,
    };
    let o = tune(&problem, &settings, |_| {});
    let tuned = all_linear();
    let held_out = Dataset::new(
        a.validation.iter().map(|&i| &positions[i]),
        &tuned,
        &Params::default(),
    );
    let trained = Dataset::new(
        a.train.iter().map(|&i| &positions[i]),
        &tuned,
        &Params::default(),
    );
    assert_eq!(o.initial.validation, Some(held_out.loss(1.0, &o.start)));
    assert_eq!(o.initial.train, trained.loss(1.0, &o.start));
    assert_eq!(
        o.history.last().unwrap().validation,
        Some(held_out.loss(1.0, &o.weights))
    );
    assert_ne!(o.initial.validation, Some(o.initial.train));
    let none = TexelProblem::new(
        &positions,
        &split(&positions, 0.0, 1),
        tuned,
        Params::default(),
    );
    assert!(tune(&none, &settings, |_| {}).initial.validation.is_none());
}

#[test]
fn fitted_k_matches_the_k_that_made_the_labels() {
    let p = Params::default();
    let tuned = all_linear();
    let start: Vec<f64> = tuned.iter().map(|&i| f64::from(p.get(i))).collect();
    // Exact labels: the loss is zero at the true K.
    let positions = random_games(20, 100, 10, |f| sigmoid(1.3 * evaluation(&p, f)));
    let data = Dataset::new(&positions, &tuned, &p);
    let k = fit_k(&data, &start);
    assert!((k - 1.3).abs() < 1e-4, "K = {k}");
    // Game-like labels drawn from the same probabilities: close to the true K.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(15);
    for k_true in [0.4, 1.6] {
        let positions = random_games(300, 60, 11, |f| {
            f64::from(u8::from(
                rng.gen::<f64>() < sigmoid(k_true * evaluation(&p, f)),
            ))
        });
        let data = Dataset::new(&positions, &tuned, &p);
        let k = fit_k(&data, &start);
        assert!((k / k_true - 1.0).abs() < 0.1, "K = {k}, true {k_true}");
    }
}
