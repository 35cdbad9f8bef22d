// Plain-named wrappers around the ICU functions journal needs. ICU's own headers rename
// every function with a version suffix (ubrk_next becomes ubrk_next_72) through macros
// that Swift cannot import; these wrappers are compiled in C, where the macros work.
// All lengths and offsets are in UTF-16 code units, as in ICU.
#ifndef CICU_H
#define CICU_H

#include <stdint.h>

typedef uint16_t cicu_char;

/// ICU's UErrorCode values that callers distinguish; any other positive value is a failure.
enum {
    CICU_OK = 0,
    CICU_BUFFER_OVERFLOW = 15, // U_BUFFER_OVERFLOW_ERROR: retry with the returned length
};

/// UTF-8 to UTF-16. Returns the needed length; *error is CICU_BUFFER_OVERFLOW when it exceeds capacity.
int32_t cicu_utf8_to_utf16(cicu_char *dest, int32_t capacity, const char *src, int32_t length, int32_t *error);

/// UTF-16 to UTF-8, an unpaired surrogate written as U+FFFD. Returns the needed length; *error
/// is CICU_BUFFER_OVERFLOW when it exceeds capacity.
int32_t cicu_utf16_to_utf8(char *dest, int32_t capacity, const cicu_char *src, int32_t length, int32_t *error);

/// Full Unicode case folding (u_strFoldCase, U_FOLD_CASE_DEFAULT).
int32_t cicu_fold_case(cicu_char *dest, int32_t capacity, const cicu_char *src, int32_t length, int32_t *error);

/// Normalization forms journal uses.
typedef enum { CICU_NFC = 0, CICU_NFKD = 1 } cicu_normal_form;

/// Normalizes src into dest (unorm2_normalize on ICU's shared, never-closed instances).
int32_t cicu_normalize(cicu_normal_form form, cicu_char *dest, int32_t capacity,
                       const cicu_char *src, int32_t length, int32_t *error);

/// Length of the longest prefix of src that is already in the form (unorm2_spanQuickCheckYes).
int32_t cicu_normalized_prefix_length(cicu_normal_form form, const cicu_char *src, int32_t length, int32_t *error);

/// Starts iterating the words of text with this thread's word break iterator (UBRK_WORD,
/// root locale, dictionaries for Chinese, Japanese, Thai...). The iterator is opened once per
/// thread and closed when the thread exits. text must stay valid until the iteration ends,
/// and one thread iterates one text at a time.
int32_t cicu_words_begin(const cicu_char *text, int32_t length);

/// The next word: a segment whose rule status is a number, letter, kana or ideograph
/// ([UBRK_WORD_NUMBER, UBRK_WORD_IDEO_LIMIT)). Returns 0 at the end, else 1 with [*start, *end).
int32_t cicu_words_next(int32_t *start, int32_t *end);

/// Regular expressions (ICU's engine), matched directly against UTF-8 text.
typedef struct cicu_regex cicu_regex;

enum {
    CICU_REGEX_LITERAL = 16,           // UREGEX_LITERAL: the pattern is plain text
    CICU_REGEX_CASE_INSENSITIVE = 2,   // UREGEX_CASE_INSENSITIVE
};

/// Compiles a pattern (UTF-16). NULL on failure, with *error set and *error_offset the
/// UTF-16 offset in the pattern where compilation failed (-1 when unknown). The first call
/// loads ICU's regular-expression library (cicu_regex_library_name()); when it can't be
/// loaded, *error is U_MISSING_RESOURCE_ERROR (2).
cicu_regex *cicu_regex_open(const cicu_char *pattern, int32_t length, int32_t flags, int32_t *error, int32_t *error_offset);

/// 1 when the pattern occurs anywhere in the UTF-8 text, 0 when not, -1 on an ICU error.
int32_t cicu_regex_find_utf8(cicu_regex *regex, const char *utf8, int64_t length);

void cicu_regex_close(cicu_regex *regex);

/// The file name of ICU's regular-expression library, for an error message.
const char *cicu_regex_library_name(void);

/// ICU's name for an error code, e.g. "U_REGEX_MISMATCHED_PAREN".
const char *cicu_error_name(int32_t error);

#endif
