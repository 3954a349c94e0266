package scene

// Repair is one repair [Normalize] made that changes what a scene says:
// an element's id, a reference between elements, a text deleted, a number
// nulled. A caller that saves a scene it was given reports these, so that
// the sender learns that the scene it sent was not the one stored (and
// which ids to use from now on). Element positions never change, so
// Pointer locates the repaired member in what was given and in what is
// written alike.
type Repair struct {
	// Code is one of the Repair constants. They are stable: clients match
	// on them.
	Code string `json:"code"`
	// ID is the element's id as it was (for a renamed one, the old id;
	// empty for one that had none).
	ID string `json:"id,omitempty"`
	// NewID is the id given, for duplicate_id_renamed and id_assigned.
	NewID string `json:"newId,omitempty"`
	// Ref is the id the repaired reference names: the element a dropped
	// binding, container or frame pointed at, or a boundElements entry
	// dropped or added.
	Ref string `json:"ref,omitempty"`
	// Pointer is the JSON pointer of the repaired member.
	Pointer string `json:"pointer"`
}

// Repair codes, the values of Repair.Code. Each is a case of one Fix kind.
const (
	// RepairDuplicateIDRenamed: an element had the id of an earlier one
	// and got a new id (FixID), as restore gives it; references keep
	// naming the first.
	RepairDuplicateIDRenamed = "duplicate_id_renamed"
	// RepairIDAssigned: an element without a string id got one (FixID).
	RepairIDAssigned = "id_assigned"
	// RepairBindingDropped: an arrow's start/endBinding naming no element
	// (or any binding of a line) was nulled (FixBinding).
	RepairBindingDropped = "binding_dropped"
	// RepairContainerDropped: a text's containerId naming no element was
	// nulled (FixContainer).
	RepairContainerDropped = "container_dropped"
	// RepairContainerSet: a text listed by a container but bound to none
	// got that containerId (FixContainer).
	RepairContainerSet = "container_set"
	// RepairFrameDropped: a frameId naming no element was nulled
	// (FixFrame).
	RepairFrameDropped = "frame_dropped"
	// RepairBoundElementDropped: a boundElements entry was removed: it
	// names nothing or a tombstone, is listed twice, or does not point back
	// (FixBoundElements).
	RepairBoundElementDropped = "bound_element_dropped"
	// RepairBoundElementAdded: a bound text or arrow missing from its
	// container's or target's boundElements was added (FixBoundElements).
	RepairBoundElementAdded = "bound_element_added"
	// RepairEmptyTextDeleted: a live text with no text was marked deleted
	// (FixEmptyText).
	RepairEmptyTextDeleted = "empty_text_deleted"
	// RepairNonFiniteNulled: numbers of the element that overflow a
	// float64 were set to null (FixNonFinite), then defaulted where
	// restore defaults them.
	RepairNonFiniteNulled = "non_finite_nulled"
)

// RepairCodes lists every repair code, for tests and documentation.
func RepairCodes() []string {
	return []string{
		RepairDuplicateIDRenamed, RepairIDAssigned, RepairBindingDropped, RepairContainerDropped,
		RepairContainerSet, RepairFrameDropped, RepairBoundElementDropped, RepairBoundElementAdded,
		RepairEmptyTextDeleted, RepairNonFiniteNulled,
	}
}

// maxRepairs bounds NormalizeReport.Repairs: a hostile scene can need a
// repair per element, and the list is for people and agents, who need the
// first ones and a count.
const maxRepairs = 1000

// repaired records a repair of element i's member key (the element itself
// for ""); ref is the id the repaired reference names, if any.
func (n *normalizer) repaired(code string, i int, key, ref string) {
	r := Repair{Code: code, ID: elementID(n.els[i]), Ref: ref, Pointer: elementPointer(i)}
	if key != "" {
		r.Pointer = elementPointer(i, key)
	}
	n.addRepair(r)
}

func (n *normalizer) addRepair(r Repair) {
	if len(n.repairs) >= maxRepairs {
		n.omitted++
		return
	}
	n.repairs = append(n.repairs, r)
}

// refID is a reference's target as a string, "" when it is not one.
func refID(v any) string {
	s, _ := v.(string)
	return s
}
