// Written by scripts/fit-quickstart-teach.ts (do not edit by hand): r5 44, alts 70 rated programs; lambda 1.
import type { TeachWeights } from './teach-model.ts';

export const TEACH_WEIGHTS: TeachWeights = {
  "bias": 0.014,
  "weights": {
    "echoesInput": -0.262,
    "dumpsObject": -0.638,
    "reportsError": -0.146,
    "standInInput": 0.228,
    "outputLines": 0.09,
    "outputChars": -0.094,
    "distinctCalls": 0.249,
    "programLines": -0.057,
    "fromGuide": -0.096,
    "fromDoctest": 0.382,
    "written": -0.415,
    "centralApi": -1.138,
    "handScore": 2.195
  },
  "center": {
    "echoesInput": 0.096,
    "dumpsObject": 0.07,
    "reportsError": 0.018,
    "standInInput": 0.149,
    "outputLines": 0.42,
    "outputChars": 0.575,
    "distinctCalls": 0.62,
    "programLines": 0.634,
    "fromGuide": 0.675,
    "fromDoctest": 0.237,
    "written": 0.088,
    "centralApi": 0.816,
    "handScore": 0.681
  },
  "scale": {
    "echoesInput": 0.295,
    "dumpsObject": 0.255,
    "reportsError": 0.131,
    "standInInput": 0.356,
    "outputLines": 0.229,
    "outputChars": 0.209,
    "distinctCalls": 0.23,
    "programLines": 0.158,
    "fromGuide": 0.468,
    "fromDoctest": 0.425,
    "written": 0.283,
    "centralApi": 0.388,
    "handScore": 0.179
  },
  "fittedOn": "r5 44, alts 70 rated programs; lambda 1",
  "lambda": 1
};
