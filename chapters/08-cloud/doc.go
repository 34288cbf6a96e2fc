// Package cloud is chapter 08: the limits a cloud provider sells, as small
// executable models, and why the service still needs a limiter of its own.
//
// Two AWS products are modelled from their documented behaviour, not their
// code: an API Gateway usage plan (a token-bucket throttle with rate and
// burst, a day / week / month quota as a fixed window, plus the stage and
// account throttles that apply to every request) and a WAF rate-based rule
// (a count over a 1, 2, 5 or 10-minute window per IP, forwarded IP or custom
// key, blocking while the count stays above a threshold of at least 10).
// Stack chains them in front of a service limiter, WAF → gateway → service,
// and reports which layer stopped each request.
//
// The models are deliberately minimal: enough to reproduce every fact of
// CONTRACT.md E18 in a test, not a simulator of AWS.
package cloud
