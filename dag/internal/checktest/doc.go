// Package checktest helps the source packages' tests check the problems
// their validation gives.
package checktest
