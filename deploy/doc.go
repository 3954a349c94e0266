// Package deploy holds the production deployment recipe (the container
// image, a compose file with PostgreSQL, two dsh nodes, nginx and
// Prometheus, and a Grafana dashboard; see docs/operations.md) and the
// tests that check it: each file parsed by its own tool where one runs
// here, the nodes' config loaded by the host, nginx in front of real
// nodes, the dashboard's queries against a real host's /metrics. It has
// no code of its own; probe/ is the image's health check.
package deploy
