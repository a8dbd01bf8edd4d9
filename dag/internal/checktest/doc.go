// Package checktest holds what the source packages' tests share: the check of
// the problems their validation gives, and an index of test objects.
package checktest
