"""The generator's rules: value ranges and exactness (ranges), Triton 3.6's result
dtypes and glc's known differences (promotion), and the feature switches."""
import os
import subprocess
import sys
import unittest
from unittest import mock

from glcdiff.gen import features, promotion
from glcdiff.gen import ranges as R


def exact(lo, hi, q=1.0):
    """An exact range lo..hi of multiples of q."""
    return R.Range(lo, hi, q, True)


class Ranges(unittest.TestCase):
    def test_integers_fit_their_dtype(self):
        self.assertTrue(R.fits("i8", exact(-128, 127)))
        self.assertFalse(R.fits("i8", exact(-129, 0)))
        self.assertFalse(R.fits("i8", exact(0, 128)))
        self.assertFalse(R.fits("u8", exact(-1, 3)))
        self.assertTrue(R.fits("u32", exact(0, 2**32 - 1)))
        self.assertFalse(R.fits("i32", exact(0.5, 1, 0.5)))       # not an integer
        self.assertFalse(R.fits("i32", R.inexact(0, 1)))            # inexact never feeds ints

    def test_bool(self):
        self.assertTrue(R.fits("i1", exact(0, 1)))
        self.assertFalse(R.fits("i1", exact(0, 2)))

    def test_exact_floats_stay_within_the_significand(self):
        self.assertTrue(R.fits("f16", exact(-2048, 2048)))          # 11 bits of 1.0
        self.assertFalse(R.fits("f16", exact(-4096, 4096)))         # would round
        self.assertTrue(R.fits("f16", exact(-1, 1, 2.0**-10)))
        self.assertFalse(R.fits("f16", exact(-1, 1, 2.0**-15)))     # subnormal quantum
        self.assertTrue(R.fits("bf16", exact(-256, 256)))
        self.assertFalse(R.fits("bf16", exact(-512, 512)))
        self.assertFalse(R.fits("f8e4m3", exact(0, 17)))            # 4 bits of 1.0

    def test_headroom_below_the_largest_value(self):
        self.assertTrue(R.fits("f16", R.inexact(0, 16000)))
        self.assertFalse(R.fits("f16", R.inexact(0, 17000)))        # a quarter of 65504

    def test_arithmetic(self):
        a, b = exact(-2, 3), exact(1, 4, 0.5)
        self.assertEqual(R.add(a, b), exact(-1, 7, 0.5))
        self.assertEqual(R.sub(a, b), exact(-6, 2, 0.5))
        self.assertEqual(R.mul(a, b), exact(-8, 12, 0.5))
        self.assertEqual(R.maximum(a, b), exact(1, 4, 0.5))
        self.assertEqual(R.minimum(a, b), exact(-2, 3, 0.5))
        self.assertEqual(R.neg(a), exact(-3, 2))
        self.assertEqual(R.absolute(a), exact(0, 3))
        self.assertEqual(R.absolute(exact(-5, -2)), exact(2, 5))
        self.assertEqual(R.scaled_sum(exact(-1, 2), 4), exact(-4, 8))
        self.assertEqual(R.trunc_div(exact(-7, 9), exact(2, 3)), exact(-4, 4))
        self.assertEqual(R.trunc_mod(exact(-7, 9), exact(2, 3)), exact(-2, 2))
        self.assertEqual(R.bits_of(exact(0, 5)), exact(0, 7))

    def test_inexact_is_contagious(self):
        self.assertFalse(R.add(exact(0, 1), R.inexact(0, 1)).exact)
        r = R.inexact(1, 2)
        self.assertLess(r.lo, 1)
        self.assertGreater(r.hi, 2)

    def test_literals(self):
        self.assertEqual(R.const(3, "i32"), exact(3, 3))
        self.assertEqual(R.const(0.75, "f32"), exact(0.75, 0.75, 2.0**-9))   # 8 bits below
        self.assertEqual(R.const(0, "f32"), exact(0, 0))


class Promotion(unittest.TestCase):
    TABLE = [   # (op, a, b, b is a literal) -> Triton 3.6's dtype
        (("+", "f16", "f32"), "f32"), (("+", "f16", "f16"), "f16"),
        (("/", "f16", "f16"), "f32"), (("+", "bf16", "bf16"), "bf16"),
        (("+", "bf16", "f16"), "f16"), (("+", "i8", "i32"), "i32"),
        (("+", "u8", "i8"), "u8"), (("+", "i16", "u8"), "i16"),
        (("+", "u32", "i64"), "i64"), (("+", "i32", "f16"), "f16"),
        (("+", "f64", "i64"), "f64"), (("/", "i32", "u32"), None),
        (("+", "f8e4m3", "f8e5m2"), "f16"), (("+", "i1", "i1"), None),
        (("maximum", "bf16", "bf16"), "f32"), (("+", "i8", "i32", True), "i8"),
        (("+", "f16", "f32", True), "f16"), (("/", "f16", "f32", True), "f32"),
        (("+", "i32", "f32", True), "f32"), (("maximum", "i8", "i32", True), "i32"),
    ]

    def test_triton_table(self):
        for args, want in self.TABLE:
            with self.subTest(args=args):
                self.assertEqual(promotion.triton_dtype(*args), want)

    def test_glc_differences(self):
        self.assertEqual(promotion.glc_dtype("/", "f16", "f16"), "f16")
        self.assertEqual(promotion.glc_dtype("maximum", "bf16", "bf16"), "bf16")
        self.assertEqual(promotion.glc_dtype("+", "bf16", "i32"), "bf16")
        self.assertEqual(promotion.glc_dtype("+", "i8", "i32", True), "i8")
        self.assertEqual(promotion.glc_dtype("+", "f16", "bf16"), "f32")
        self.assertEqual(promotion.glc_dtype("+", "f16", "f32"), "f32")   # as Triton

    def test_quirks_switch(self):
        on = {"promotion_quirks": (True, "")}
        off = {"promotion_quirks": (False, "test")}
        with mock.patch.dict(features.SWITCHES, on), mock.patch.dict(features.OVERRIDES, {}):
            self.assertEqual(promotion.result_dtype("/", "f16", "f16"), "f32")
            self.assertEqual(promotion.reduce_dtype("max", "i8"), "i32")
        with mock.patch.dict(features.SWITCHES, off), mock.patch.dict(features.OVERRIDES, {}):
            self.assertIsNone(promotion.result_dtype("/", "f16", "f16"))
            self.assertEqual(promotion.result_dtype("+", "f16", "f32"), "f32")
            self.assertIsNone(promotion.reduce_dtype("max", "i8"))

    def test_reductions(self):
        self.assertEqual(promotion.reduce_dtype("sum", "i8"), "i32")
        self.assertEqual(promotion.reduce_dtype("sum", "u16"), "u32")
        self.assertEqual(promotion.reduce_dtype("sum", "f16"), "f16")
        self.assertEqual(promotion.reduce_dtype("max", "f32"), "f32")


class Features(unittest.TestCase):
    def test_every_switch_has_a_reason_when_off(self):
        for name, (on, why) in features.SWITCHES.items():
            with self.subTest(feature=name):
                self.assertTrue(on or why, f"{name} is off without a reason")

    def test_environment_overrides(self):
        code = ("from glcdiff.gen import features as f; "
                "print(f.enabled('loops'), f.enabled('scans'), f.disabled_list()[0][0])")
        env = dict(os.environ, DIFF_FEATURES="-loops", PYTHONPATH=os.path.dirname(
            os.path.dirname(os.path.abspath(__file__))))
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                             text=True, check=True).stdout.split()
        self.assertEqual(out, ["False", "True", "loops"])

    def test_unknown_feature(self):
        env = dict(os.environ, DIFF_FEATURES="no_such_thing", PYTHONPATH=os.path.dirname(
            os.path.dirname(os.path.abspath(__file__))))
        p = subprocess.run([sys.executable, "-c", "import glcdiff.gen.features"], env=env,
                           capture_output=True, text=True)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("unknown feature 'no_such_thing'", p.stderr)


if __name__ == "__main__":
    unittest.main()
