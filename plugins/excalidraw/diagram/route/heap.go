package route

// heap is a binary heap, the element that comes before the others first:
// the search's frontier and the nudging's ready variables.
type heap[T interface{ before(T) bool }] []T

func (h *heap[T]) len() int { return len(*h) }

func (h *heap[T]) push(x T) {
	*h = append(*h, x)
	s := *h
	for i := len(s) - 1; i > 0; {
		p := (i - 1) / 2
		if !s[i].before(s[p]) {
			break
		}
		s[p], s[i] = s[i], s[p]
		i = p
	}
}

func (h *heap[T]) pop() T {
	s := *h
	x := s[0]
	n := len(s) - 1
	s[0] = s[n]
	s = s[:n]
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < n && s[l].before(s[m]) {
			m = l
		}
		if r < n && s[r].before(s[m]) {
			m = r
		}
		if m == i {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	*h = s
	return x
}
