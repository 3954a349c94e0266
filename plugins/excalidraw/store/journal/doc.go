// Package journal is the file format of a scene's commit journal: one
// append-only file of framed entries, each the record of one committed
// revision (who, through what, with what note, which elements) and the
// affected elements as they were before it, compressed.
//
// It knows nothing of locks, scenes or the store's protocol; the store
// decides when to append and what a tail that does not match its sidecar
// means. Everything here works on an io.ReaderAt, so readers need no lock.
//
// # Frame
//
// All integers are little-endian uint32.
//
//	offset  size  field
//	0       4     magic "DJE1"
//	4       4     meta length M
//	8       4     blob length B
//	12      4     CRC-32C (Castagnoli) of meta
//	16      4     CRC-32C of blob
//	20      M     meta: the Entry as JSON (UTF-8)
//	20+M    B     blob: Images as JSON, DEFLATE-compressed (RFC 1951); empty when there are none
//	20+M+B  4     frame length L = 28+M+B
//	24+M+B  4     magic "dje1"
//
// The trailer makes the file walkable from its end: the last 8 bytes give
// the last frame's length, so the newest entries are read first without
// scanning the file. A frame is valid when both magics, the two lengths
// and both CRCs agree. A crash mid-append leaves a torn tail: Scan finds
// the end of the last valid frame, and the store truncates the file
// there.
package journal
