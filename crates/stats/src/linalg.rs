//! Small dense linear algebra for the rating fit: symmetric positive-definite solves and inverses
//! by Cholesky factorisation, products, and reducing a matrix to (or expanding it from) a subset of
//! its rows and columns. Matrices are row-major `Vec<Vec<f64>>`: the fits have tens of players,
//! so clarity beats a dependency on a linear-algebra crate.

/// The submatrix of `m` on the rows and columns `keep`.
pub fn reduced(m: &[Vec<f64>], keep: &[usize]) -> Vec<Vec<f64>> {
    keep.iter()
        .map(|&i| keep.iter().map(|&j| m[i][j]).collect())
        .collect()
}

/// The `n x n` matrix holding `m` on the rows and columns `keep` and zeros elsewhere (the inverse
/// of [`reduced`]).
pub fn expand(m: &[Vec<f64>], keep: &[usize], n: usize) -> Vec<Vec<f64>> {
    let mut full = vec![vec![0.0; n]; n];
    for (a, &i) in keep.iter().enumerate() {
        for (b, &j) in keep.iter().enumerate() {
            full[i][j] = m[a][b];
        }
    }
    full
}

/// The matrix product `a b`.
pub fn mat_mul(a: &[Vec<f64>], b: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let k = b.len();
    let cols = b.first().map_or(0, Vec::len);
    a.iter()
        .map(|row| {
            (0..cols)
                .map(|j| (0..k).map(|l| row[l] * b[l][j]).sum())
                .collect()
        })
        .collect()
}

/// Lower-triangular Cholesky factor of a symmetric positive-definite matrix.
pub fn cholesky(m: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = m.len();
    let mut l = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..=i {
            let s: f64 = (0..j).map(|k| l[i][k] * l[j][k]).sum();
            if i == j {
                let d = m[i][i] - s;
                if d.is_nan() || d <= 0.0 {
                    return None;
                }
                l[i][i] = d.sqrt();
            } else {
                l[i][j] = (m[i][j] - s) / l[j][j];
            }
        }
    }
    Some(l)
}

/// Solves `L L^T x = b` given the lower-triangular Cholesky factor `L`.
pub fn cholesky_solve(l: &[Vec<f64>], b: &[f64]) -> Vec<f64> {
    let n = l.len();
    let mut y = vec![0.0; n];
    for i in 0..n {
        let s: f64 = (0..i).map(|k| l[i][k] * y[k]).sum();
        y[i] = (b[i] - s) / l[i][i];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let s: f64 = (i + 1..n).map(|k| l[k][i] * x[k]).sum();
        x[i] = (y[i] - s) / l[i][i];
    }
    x
}

/// Solves `m x = b` for a symmetric positive-definite `m`; `None` if `m` is not positive
/// definite (or the solution is not finite).
pub fn solve_spd(m: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    let l = cholesky(m)?;
    let x = cholesky_solve(&l, b);
    x.iter().all(|v| v.is_finite()).then_some(x)
}

/// The inverse of a symmetric positive-definite matrix; `None` if it is not positive definite.
pub fn invert_spd(m: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let l = cholesky(m)?;
    let n = m.len();
    let mut inv = vec![vec![0.0; n]; n];
    for j in 0..n {
        let mut e = vec![0.0; n];
        e[j] = 1.0;
        let col = cholesky_solve(&l, &e);
        for i in 0..n {
            inv[i][j] = col[i];
        }
    }
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spd() -> Vec<Vec<f64>> {
        vec![
            vec![4.0, 2.0, 0.4],
            vec![2.0, 5.0, 1.0],
            vec![0.4, 1.0, 3.0],
        ]
    }

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 1e-12, "{a} vs {b}");
    }

    #[test]
    fn cholesky_reproduces_the_matrix() {
        let m = spd();
        let l = cholesky(&m).unwrap();
        for i in 0..3 {
            for j in 0..3 {
                let llt: f64 = (0..3).map(|k| l[i][k] * l[j][k]).sum();
                close(llt, m[i][j]);
                if j > i {
                    assert_eq!(l[i][j], 0.0);
                }
            }
        }
        assert!(cholesky(&[vec![1.0, 2.0], vec![2.0, 1.0]]).is_none());
        assert!(solve_spd(&[vec![0.0]], &[1.0]).is_none());
    }

    #[test]
    fn solve_and_inverse_agree() {
        let m = spd();
        let b = [1.0, -2.0, 0.5];
        let x = solve_spd(&m, &b).unwrap();
        for i in 0..3 {
            close((0..3).map(|j| m[i][j] * x[j]).sum(), b[i]);
        }
        let inv = invert_spd(&m).unwrap();
        let id = mat_mul(&m, &inv);
        for i in 0..3 {
            for j in 0..3 {
                close(id[i][j], if i == j { 1.0 } else { 0.0 });
            }
        }
    }

    #[test]
    fn reduce_and_expand_are_inverse_on_the_kept_block() {
        let m = spd();
        let r = reduced(&m, &[0, 2]);
        assert_eq!(r, vec![vec![4.0, 0.4], vec![0.4, 3.0]]);
        let e = expand(&r, &[0, 2], 3);
        assert_eq!(e[1], vec![0.0; 3]);
        assert_eq!(e[2][0], 0.4);
        assert_eq!(reduced(&e, &[0, 2]), r);
    }
}
