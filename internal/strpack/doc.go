// Package strpack makes many short strings, such as resource names and
// keys, in one allocation, and writes numbers into them without strings of
// their own.
package strpack
