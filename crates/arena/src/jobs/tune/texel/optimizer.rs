//! The gradient-descent methods (Adam, AdaGrad) and their per-weight state.

use std::fmt;

/// Gradient-descent method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Optimizer {
    /// Adam (beta1 0.9, beta2 0.999, eps 1e-8); a step moves a weight by about `lr`.
    Adam,
    /// AdaGrad (eps 1e-8); steps shrink as squared gradients accumulate.
    AdaGrad,
}

/// An optimizer name that is neither `adam` nor `adagrad`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown optimizer '{0}' (expected adam or adagrad)")]
pub struct UnknownOptimizer(pub String);

impl Optimizer {
    /// Every optimizer, by its name.
    pub const ALL: [Optimizer; 2] = [Optimizer::Adam, Optimizer::AdaGrad];
}

impl std::str::FromStr for Optimizer {
    type Err = UnknownOptimizer;

    fn from_str(s: &str) -> Result<Optimizer, UnknownOptimizer> {
        Optimizer::ALL
            .into_iter()
            .find(|o| o.to_string() == s)
            .ok_or_else(|| UnknownOptimizer(s.to_string()))
    }
}

impl Optimizer {
    /// The default learning rate (centipawns).
    pub fn default_learning_rate(self) -> f64 {
        match self {
            Optimizer::Adam => 1.0,
            Optimizer::AdaGrad => 5.0,
        }
    }
}

impl fmt::Display for Optimizer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Optimizer::Adam => "adam",
            Optimizer::AdaGrad => "adagrad",
        })
    }
}

/// Optimizer state for a weight vector.
pub(super) struct Stepper {
    optimizer: Optimizer,
    lr: f64,
    t: i32,
    m: Vec<f64>,
    v: Vec<f64>,
}

impl Stepper {
    const BETA1: f64 = 0.9;
    const BETA2: f64 = 0.999;
    const EPS: f64 = 1e-8;

    pub(super) fn new(optimizer: Optimizer, lr: f64, n: usize) -> Stepper {
        Stepper {
            optimizer,
            lr,
            t: 0,
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }

    pub(super) fn step(&mut self, weights: &mut [f64], grad: &[f64]) {
        self.t += 1;
        for j in 0..weights.len() {
            let g = grad[j];
            weights[j] -= match self.optimizer {
                Optimizer::Adam => {
                    self.m[j] = Self::BETA1 * self.m[j] + (1.0 - Self::BETA1) * g;
                    self.v[j] = Self::BETA2 * self.v[j] + (1.0 - Self::BETA2) * g * g;
                    let m = self.m[j] / (1.0 - Self::BETA1.powi(self.t));
                    let v = self.v[j] / (1.0 - Self::BETA2.powi(self.t));
                    self.lr * m / (v.sqrt() + Self::EPS)
                }
                Optimizer::AdaGrad => {
                    self.v[j] += g * g;
                    self.lr * g / (self.v[j].sqrt() + Self::EPS)
                }
            };
        }
    }
}
