// Written by scripts/fit-quickstart-teach.ts (do not edit by hand): r5 44, r7 42, alts 70 rated programs; lambda 10.
import type { TeachWeights } from './teach-model.ts';

export const TEACH_WEIGHTS: TeachWeights = {
  "bias": 0.122,
  "weights": {
    "echoesInput": -0.071,
    "dumpsObject": -0.452,
    "reportsError": -0.169,
    "standInInput": 0.078,
    "outputLines": 0.025,
    "outputChars": -0.123,
    "distinctCalls": 0.103,
    "programLines": 0.088,
    "fromGuide": 0.048,
    "fromDoctest": 0.174,
    "written": -0.325,
    "centralApi": -0.229,
    "handScore": 0.664,
    "readmeLead": 0.706,
    "entryApi": 0.274,
    "innerDoctest": -0.214
  },
  "center": {
    "echoesInput": 0.071,
    "dumpsObject": 0.058,
    "reportsError": 0.013,
    "standInInput": 0.115,
    "outputLines": 0.428,
    "outputChars": 0.593,
    "distinctCalls": 0.6,
    "programLines": 0.623,
    "fromGuide": 0.699,
    "fromDoctest": 0.212,
    "written": 0.09,
    "centralApi": 0.808,
    "handScore": 0.657,
    "readmeLead": 0.282,
    "entryApi": 0.147,
    "innerDoctest": 0.103
  },
  "scale": {
    "echoesInput": 0.256,
    "dumpsObject": 0.233,
    "reportsError": 0.112,
    "standInInput": 0.319,
    "outputLines": 0.237,
    "outputChars": 0.213,
    "distinctCalls": 0.245,
    "programLines": 0.162,
    "fromGuide": 0.459,
    "fromDoctest": 0.408,
    "written": 0.286,
    "centralApi": 0.394,
    "handScore": 0.224,
    "readmeLead": 0.45,
    "entryApi": 0.355,
    "innerDoctest": 0.303
  },
  "fittedOn": "r5 44, r7 42, alts 70 rated programs; lambda 10",
  "lambda": 10
};
