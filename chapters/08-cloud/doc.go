// Package cloud is chapter 08: the limits a cloud provider sells, as small
// executable models, and why the service still needs a limiter of its own.
//
// Two AWS products are modelled from their documented behaviour, not their
// code. An API Gateway usage plan (REST APIs only): a token-bucket throttle
// with rate and burst (chapter 04's bucket), a day / week / month quota as a
// fixed window, plus the stage and account throttles that apply to every
// request (the account's 10,000 per second with a burst of 5,000 in most
// Regions). A WAF rate-based rule: a count over a 1, 2, 5 or 10-minute
// window per IP, forwarded IP or custom key (headers, cookies, query
// arguments, paths, labels …), blocking while the count stays above a
// threshold of at least 10; like AWS it counts every IPv6 address on its
// own, and groups them by prefix only when asked (RateRule.IPv6Prefix, the
// model's option, not the product's). Stack chains them in front of a service limiter,
// WAF → gateway → service, and reports which layer stopped each request.
//
// The models are deliberately minimal: enough to reproduce every fact of
// CONTRACT.md E18 in a test, not a simulator of AWS. Two of their answers are
// idealised and labelled so: the WAF model counts exactly and blocks from
// the request that crosses the threshold, where the real rule estimates the
// rate and acts after a lag (usually under 30 s, sometimes minutes); and
// GatewayConfig.Nodes is a hypothetical mechanism for "best effort", which
// AWS names but does not describe.
package cloud
