/* chi2.h: the chi-square distribution for the sampling tests (test_bsdf.c, test_envmap.c): the
 * p-value of a goodness-of-fit statistic through the regularized incomplete gamma function. */
#ifndef RC_TEST_CHI2_H
#define RC_TEST_CHI2_H

#include <math.h>

/* The regularized upper incomplete gamma function Q(a, x) = Gamma(a, x) / Gamma(a): the power
 * series of P = 1 - Q below x = a + 1 (Abramowitz & Stegun 6.5.29), the continued fraction of
 * Q above (A&S 6.5.31), evaluated by the modified Lentz method. */
static inline double gamma_q(double a, double x) {
    if (!(x > 0.0)) return 1.0;
    double lead = exp(-x + a * log(x) - lgamma(a));
    if (x < a + 1.0) {
        double term = 1.0 / a, sum = term;
        for (int n = 1; n < 100000 && fabs(term) > fabs(sum) * 1e-16; n++) {
            term *= x / (a + n);
            sum += term;
        }
        return fmax(0.0, 1.0 - lead * sum);
    }
    const double tiny = 1e-300;
    double bn = x + 1.0 - a, c = 1.0 / tiny, d = 1.0 / bn, h = d;
    for (int i = 1; i < 100000; i++) {
        double an = -i * (i - a);
        bn += 2.0;
        d = an * d + bn;
        if (fabs(d) < tiny) d = tiny;
        c = bn + an / c;
        if (fabs(c) < tiny) c = tiny;
        d = 1.0 / d;
        double del = d * c;
        h *= del;
        if (fabs(del - 1.0) < 1e-16) break;
    }
    return lead * h;
}

/* P(X >= x) for X chi-square with k degrees of freedom. */
static inline double chi2_sf(double x, double k) {
    return gamma_q(0.5 * k, 0.5 * x);
}

#endif /* RC_TEST_CHI2_H */
