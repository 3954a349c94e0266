package engine

import (
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// SetCustom sets key in the customData of the live element id to value
// (an ojson value; nil removes the key, and an emptied customData goes):
// how a plugin records what an element stands for, such as the node of a
// diagram it draws. The element is bumped as any edit bumps it.
func (tx *Txn) SetCustom(id, key string, value any, pointer string) error {
	return tx.do(func() error {
		el, err := tx.liveAt(id, pointer)
		if err != nil {
			return err
		}
		cd, ok := el.Object("customData")
		if ok {
			cd = cd.Clone()
		} else {
			cd = ojson.New()
		}
		if value == nil {
			cd.Delete(key)
		} else {
			cd.Set(key, value)
		}
		if cd.Len() == 0 {
			el.Delete("customData")
		} else {
			el.Set("customData", cd)
		}
		tx.bump(el)
		return nil
	})
}
