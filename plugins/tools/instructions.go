package tools

import (
	"context"
	"strings"

	"github.com/dshgo/dsh/app"
)

// instruction is one plugin's text for the MCP initialize result.
type instruction struct{ text string }

// AddInstructions adds text to what clients are told when they connect
// (MCP's initialize instructions): a plugin's one or two sentences on
// where to start, such as the guide tool to call first. It returns the
// function that removes it again, meant to be recorded as a plugin
// effect. Texts are joined in the order they were added, one paragraph
// each; an empty text is not added.
func (r *Registry) AddInstructions(text string) (remove func()) {
	text = strings.TrimSpace(text)
	if text == "" {
		return func() {}
	}
	in := &instruction{text: text}
	r.mu.Lock()
	r.instructions = append(r.instructions, in)
	r.mu.Unlock()
	return func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		for i, x := range r.instructions {
			if x == in {
				r.instructions = append(r.instructions[:i:i], r.instructions[i+1:]...)
				return
			}
		}
	}
}

// Instructions are the texts plugins added (AddInstructions), one
// paragraph each, in order; "" when there are none.
func (r *Registry) Instructions() string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	parts := make([]string, len(r.instructions))
	for i, in := range r.instructions {
		parts[i] = in.text
	}
	return strings.Join(parts, "\n\n")
}

// UseInstructions adds text to the registry's instructions (see
// [Registry.AddInstructions]) as an effect of the plugin ctx belongs to:
// unloading the plugin removes it.
func UseInstructions(ctx *app.Context, text string) error {
	reg, err := app.Get[*Registry](ctx, ServiceName)
	if err != nil {
		return err
	}
	_, err = ctx.Acquire("instructions", func() (app.Disposer, error) {
		remove := reg.AddInstructions(text)
		return func(context.Context) error { remove(); return nil }, nil
	})
	return err
}
