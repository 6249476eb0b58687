package executor

const LogStepKey = "step"
