package typecache

import (
	"reflect"
	"sync"
)

// Cache holds one V per type. The zero Cache is ready to use.
type Cache[V any] struct {
	mu sync.Mutex // held while values are made
	m  sync.Map   // reflect.Type -> V, once complete
}

// Get is t's value; the first time, make makes it, with the values of the
// types it reaches, which make adds to made (Made finds them) as it makes
// them.
func (c *Cache[V]) Get(t reflect.Type, make func(t reflect.Type, made map[reflect.Type]V) V) V {
	if v, ok := c.m.Load(t); ok {
		return v.(V)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	made := map[reflect.Type]V{}
	v := make(t, made)
	for t, v := range made {
		c.m.Store(t, v)
	}
	return v
}

// Made is t's value if it is published, or is being made (in made).
func (c *Cache[V]) Made(t reflect.Type, made map[reflect.Type]V) (V, bool) {
	if v, ok := c.m.Load(t); ok {
		return v.(V), true
	}
	v, ok := made[t]
	return v, ok
}
