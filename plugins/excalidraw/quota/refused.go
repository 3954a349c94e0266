package quota

// OnRefuse makes fn hear of every use Take refuses past a rule's limit,
// with the rule's name (metrics); nil stops telling. fn must be quick.
func (l *Limiter) OnRefuse(fn func(rule string)) {
	if fn == nil {
		l.refused.Store(nil)
		return
	}
	l.refused.Store(&fn)
}

// tellRefused tells OnRefuse's func of a refusal of r.
func (l *Limiter) tellRefused(r Rule) {
	if fn := l.refused.Load(); fn != nil {
		(*fn)(r.Name)
	}
}
