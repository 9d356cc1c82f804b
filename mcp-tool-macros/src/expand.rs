//! Writes the code for checked tools. The generated code is small: one arguments struct for
//! the derives, one cached definition, one handler that calls generic runtime functions.

use std::collections::HashMap;

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{ImplItem, Item, ItemImpl, LitStr};

use crate::check;
use crate::errors::Errors;
use crate::fallback;
use crate::parse::{self, Place, Tool};

fn is_tool_attr(attr: &syn::Attribute) -> bool {
    attr.path()
        .segments
        .last()
        .is_some_and(|segment| segment.ident == "mcp_tool")
}

/// `#[mcp_tool]` on an item.
pub(crate) fn tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = Errors::default();
    let mut function = match syn::parse2::<Item>(item.clone()) {
        Ok(Item::Fn(function)) => function,
        Ok(other) => {
            errors.spanned(
                item_keyword(&other),
                "`#[mcp_tool]` goes on a function; for methods, put `#[mcp_tools]` on their \
                 `impl` block",
            );
            let compile_errors = errors.to_compile_errors();
            return quote!(#compile_errors #item);
        }
        Err(error) => {
            let compile_errors = error.to_compile_error();
            return quote!(#compile_errors #item);
        }
    };
    let model = parse::parse_tool(
        attr,
        &function.attrs,
        &function.sig,
        Place::Free,
        &mut errors,
    );
    check::check(&model, &mut errors);
    parse::strip_arg_attrs(&mut function.sig);
    if !errors.is_empty() {
        return fallback::free(
            quote!(#function),
            &function.vis,
            &function.sig.ident,
            &errors,
        );
    }
    let vis = &function.vis;
    let definition = format_ident!(
        "{}_tool",
        function.sig.ident.to_string().trim_start_matches("r#"),
        span = function.sig.ident.span()
    );
    let doc = format!(
        "The MCP tool definition of [`{}`], for `McpServer::builder(..).tool(..)`.",
        function.sig.ident
    );
    let body = definition_body(&model, quote!(__S));
    quote! {
        #function
        #[doc = #doc]
        #vis fn #definition<__S>() -> ::mcp_tool_runtime::ToolDef<__S>
        where
            __S: ::core::marker::Send + ::core::marker::Sync + 'static,
        {
            #body
        }
    }
}

fn item_keyword(item: &Item) -> TokenStream {
    match item {
        Item::Struct(item) => {
            let token = item.struct_token;
            quote!(#token)
        }
        Item::Enum(item) => {
            let token = item.enum_token;
            quote!(#token)
        }
        Item::Impl(item) => {
            let token = item.impl_token;
            quote!(#token)
        }
        Item::Mod(item) => {
            let token = item.mod_token;
            quote!(#token)
        }
        Item::Const(item) => {
            let token = item.const_token;
            quote!(#token)
        }
        Item::Static(item) => {
            let token = item.static_token;
            quote!(#token)
        }
        Item::Trait(item) => {
            let token = item.trait_token;
            quote!(#token)
        }
        Item::Type(item) => {
            let token = item.type_token;
            quote!(#token)
        }
        other => quote!(#other),
    }
}

/// `#[mcp_tools]` on an impl block.
pub(crate) fn tool_set(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = Errors::default();
    if !attr.is_empty() {
        errors.spanned(
            &attr,
            "`#[mcp_tools]` takes no options; configure each `#[mcp_tool]`",
        );
    }
    let mut block = match syn::parse2::<ItemImpl>(item.clone()) {
        Ok(block) => block,
        Err(_) => {
            errors.at(
                Span::call_site(),
                "`#[mcp_tools]` goes on an `impl` block of the state type whose methods are tools",
            );
            let compile_errors = errors.to_compile_errors();
            return quote!(#compile_errors #item);
        }
    };
    if let Some((_, path, _)) = &block.trait_ {
        errors.spanned(
            path,
            "`#[mcp_tools]` goes on an inherent `impl` block, not a trait implementation",
        );
    }

    let mut tools = Vec::new();
    for member in &mut block.items {
        let ImplItem::Fn(method) = member else {
            continue;
        };
        let Some(position) = method.attrs.iter().position(is_tool_attr) else {
            continue;
        };
        let tool_attr = method.attrs.remove(position);
        let tokens = match tool_attr.meta {
            syn::Meta::List(list) => list.tokens,
            syn::Meta::Path(_) => TokenStream::new(),
            syn::Meta::NameValue(pair) => {
                errors.spanned(&pair, "write `#[mcp_tool(...)]`");
                TokenStream::new()
            }
        };
        let model = parse::parse_tool(
            tokens,
            &method.attrs,
            &method.sig,
            Place::ToolSet,
            &mut errors,
        );
        check::check(&model, &mut errors);
        parse::strip_arg_attrs(&mut method.sig);
        tools.push(model);
    }
    check_unique_names(&tools, &mut errors);
    if !errors.is_empty() {
        return fallback::tool_set(&block, &errors);
    }

    let (impl_generics, _, where_clause) = block.generics.split_for_impl();
    let self_ty = &block.self_ty;
    let definitions = tools.iter().map(|tool| {
        let ident = format_ident!(
            "__mcp_tool_{}",
            tool.ident.to_string().trim_start_matches("r#")
        );
        let body = definition_body(tool, quote!(Self));
        quote! {
            #[doc(hidden)]
            fn #ident() -> ::mcp_tool_runtime::ToolDef<Self> {
                #body
            }
        }
    });
    let calls = tools.iter().map(|tool| {
        let ident = format_ident!(
            "__mcp_tool_{}",
            tool.ident.to_string().trim_start_matches("r#")
        );
        quote!(Self::#ident())
    });
    quote! {
        #block

        impl #impl_generics #self_ty #where_clause {
            #(#definitions)*
        }

        impl #impl_generics ::mcp_tool_runtime::ToolSet for #self_ty #where_clause {
            fn tools() -> ::std::vec::Vec<::mcp_tool_runtime::ToolDef<Self>> {
                ::std::vec![#(#calls),*]
            }
        }
    }
}

/// Two tools of one server may not share a name; within one `#[mcp_tools]` block that is
/// known at compile time.
fn check_unique_names(tools: &[Tool], errors: &mut Errors) {
    let mut seen: HashMap<String, &Tool> = HashMap::new();
    for tool in tools {
        let name = tool.name();
        match seen.get(&name) {
            Some(first) => {
                let mut error = syn::Error::new(
                    tool.name_token_span(),
                    format!(
                        "a second tool named `{name}`: tool names must be unique within a server"
                    ),
                );
                error.combine(syn::Error::new(
                    first.name_token_span(),
                    format!("the first tool named `{name}` is here"),
                ));
                errors.push(error);
            }
            None => {
                seen.insert(name, tool);
            }
        }
    }
}

fn optional_flag(flag: Option<crate::attr::Flag>) -> TokenStream {
    match flag {
        Some(flag) => {
            let value = flag.value;
            quote!(::core::option::Option::Some(#value))
        }
        None => quote!(::core::option::Option::None),
    }
}

/// The body of the function that returns a tool's `ToolDef`: the arguments type, the cached
/// definition, and the handler.
fn definition_body(tool: &Tool, state: TokenStream) -> TokenStream {
    let rt = quote!(::mcp_tool_runtime);
    let name = LitStr::new(&tool.name(), tool.name_token_span());
    let description = tool
        .attr
        .description
        .as_ref()
        .map(LitStr::value)
        .unwrap_or_else(|| tool.docs.description.clone());
    let output = &tool.output;
    let output_check = quote_spanned!(output.span()=>
        const _: () = #rt::__private::assert_output::<#output>();
    );

    let mut extra_items = Vec::new();
    let (arguments_type, builder_extra, bindings, call_args) = match tool.whole_input() {
        Some(input) => {
            let ty = &input.ty;
            extra_items.push(quote_spanned!(ty.span()=>
                const _: () = #rt::__private::assert_input::<#ty>();
            ));
            (
                quote!(#ty),
                quote!(.whole_input()),
                quote!(__mcp_input),
                vec![quote!(__mcp_input)],
            )
        }
        None => {
            let fields = tool.args.iter().map(|arg| {
                let ident = &arg.ident;
                let ty = &arg.ty;
                let doc = arg
                    .attr
                    .description
                    .as_ref()
                    .map(LitStr::value)
                    .or_else(|| {
                        tool.docs
                            .arguments
                            .iter()
                            .find(|doc| doc.name == arg.property())
                            .map(|doc| doc.text.clone())
                    })
                    .map(|text| quote!(#[doc = #text]));
                let default = arg.attr.default.as_ref().map(|default| match default {
                    None => quote!(#[serde(default)]),
                    Some(expr) => {
                        let function = format_ident!("__mcp_default_{}", arg.property());
                        let path = LitStr::new(&function.to_string(), Span::call_site());
                        extra_items.push(quote_spanned!(expr.span()=>
                            #[allow(non_snake_case)]
                            fn #function() -> #ty {
                                ::core::convert::From::from(#expr)
                            }
                        ));
                        quote!(#[serde(default = #path)])
                    }
                });
                let example = arg
                    .attr
                    .example
                    .as_ref()
                    .map(|expr| quote!(#[schemars(example = (#expr))]));
                let validate = &arg.validate;
                let passthrough = &arg.passthrough;
                extra_items.push(quote_spanned!(ty.span()=>
                    const _: () = #rt::__private::assert_argument::<#ty>();
                ));
                quote! {
                    #doc #default #example #(#validate)* #(#passthrough)*
                    #ident: #ty
                }
            });
            let fields: Vec<TokenStream> = fields.collect();
            let bound: Vec<_> = (0..tool.args.len())
                .map(|i| format_ident!("__mcp_arg{i}"))
                .collect();
            let idents = tool.args.iter().map(|arg| &arg.ident);
            extra_items.push(quote! {
                #[derive(
                    #rt::__private::serde::Deserialize,
                    #rt::__private::schemars::JsonSchema,
                    #rt::__private::validator::Validate
                )]
                #[serde(crate = "::mcp_tool_runtime::__private::serde", deny_unknown_fields)]
                #[schemars(crate = "::mcp_tool_runtime::__private::schemars")]
                #[validate(crate = "::mcp_tool_runtime::__private::validator")]
                #[allow(non_camel_case_types, dead_code)]
                struct __McpArguments {
                    #(#fields,)*
                }
            });
            (
                quote!(__McpArguments),
                quote!(),
                quote!(__McpArguments { #(#idents: #bound),* }),
                bound.iter().map(|b| quote!(#b)).collect(),
            )
        }
    };

    let function = &tool.ident;
    let call = match (tool.place, tool.has_receiver) {
        (_, true) => quote!(__mcp_state.#function(#(#call_args),*)),
        (Place::ToolSet, false) => quote!(Self::#function(#(#call_args),*)),
        (Place::Free, false) => quote!(#function(#(#call_args),*)),
    };
    let call = if tool.is_async {
        quote!(#call.await)
    } else {
        call
    };
    let title = tool.attr.title.as_ref().map(|title| quote!(.title(#title)));
    let meta = tool
        .attr
        .meta
        .as_ref()
        .map(|meta| quote!(.meta_json(#meta)));
    let read_only = optional_flag(tool.attr.read_only);
    let destructive = optional_flag(tool.attr.destructive);
    let idempotent = optional_flag(tool.attr.idempotent);
    let open_world = optional_flag(tool.attr.open_world);
    let state_param = if tool.has_receiver {
        quote!(__mcp_state)
    } else {
        quote!(_)
    };

    quote! {
        #(#extra_items)*
        #output_check

        static INFO: ::std::sync::OnceLock<#rt::ToolInfo> = ::std::sync::OnceLock::new();
        let info = INFO.get_or_init(|| {
            #rt::ToolInfo::builder::<#arguments_type, #output>(#name, #description)
                #title
                #meta
                #builder_extra
                .hints(#rt::Hints {
                    read_only: #read_only,
                    destructive: #destructive,
                    idempotent: #idempotent,
                    open_world: #open_world,
                })
                .build()
        });
        #rt::ToolDef::<#state>::new(info, |#state_param, __mcp_call| {
            #rt::__private::boxed(async move {
                let #bindings = match __mcp_call.parse::<#arguments_type>() {
                    ::core::result::Result::Ok(arguments) => arguments,
                    ::core::result::Result::Err(error) => return ::core::result::Result::Err(error),
                };
                #rt::IntoToolOutput::into_tool_output(#call)
            })
        })
    }
}
